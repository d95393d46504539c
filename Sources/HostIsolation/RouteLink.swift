import Dispatch
import FoundationEssentials
import Glibc
import HostProcesses
import Synchronization

/// One side of the link between the host and a module's process, for route calls: it sends a
/// call and waits for its answer, and while it waits it makes the calls the other side sends
/// back (a callback, a route of this side), so a chain of calls runs as it would in one
/// process, one thread at a time.
///
/// Whatever the other side sends is checked: a frame that does not read, an answer to a call
/// never made, a frame over the size limit or no answer within the call limit cuts the link,
/// names the other side, and makes every later call fail at once with
/// ``RouteCallError/unavailable(peer:reason:)``.
package final class RouteLink: @unchecked Sendable {
    // Mutable state is touched only with `lock` held (a recursive lock: a call made while
    // serving a call of the other side takes it again on the same thread). What
    // RouteLink+Receiving.swift uses is internal for it, and touched there with the lock held too.

    enum Exported {
        case object(any RouteDispatching)
        case callback(onMainActor: Bool, RemoteCallback.Body)
    }

    /// Who is on the other side, for messages (`module 'Geo'`, `the host`).
    package let peer: String
    /// The link's frames: the hellos are said on it before the first call.
    package let channel: FrameChannel
    let lock = RecursiveLock()
    /// Set by ``close()`` before it ends the socket: the end this side made is no failure to
    /// tell (the watcher and a waiting read meet it before `close` has the lock).
    let closing = Atomic<Bool>(false)
    /// ``serveUntilClosed()`` returns once the call it serves is answered.
    var endServing = false
    private var nextCall: UInt64 = 0
    private var nextReference: UInt64 = 0
    private var exported: [UInt64: Exported] = [:]
    private var served: [String: any RouteDispatching] = [:]
    /// What makes the route of each name this side serves (`nil`: none of that name).
    private let routes: @Sendable (String) -> (@Sendable () throws -> any RouteDispatching)?
    var failure: RouteCallError?
    /// The descriptors of the call frame just read, until it is served.
    var arrivedDescriptors: [Int32] = []
    private let releases = Mutex<[UInt64]>([])
    private let reported = Mutex<Set<String>>([])
    /// The calls this side sent, by member.
    package let stats = RouteCallStats()
    /// The calls under way, innermost last, for the message of one that takes too long.
    var inFlight: [String] = []
    let callLimit: Duration?
    let answersPings: Bool
    /// When the answer of the innermost call under way is due (`nil`: none, or no limit).
    var deadline: ContinuousClock.Instant?
    /// The CPU time the other side may use in a call without a time limit.
    let cpuBudget: CPUBudget?
    /// The other side's CPU time in the innermost call without a time limit (`nil`: none
    /// under way, or no budget).
    var cpuWatch: CPUBudget.Watch?
    private let onFailure: @Sendable (RouteCallError) -> Void
    private let onProblem: @Sendable (String) -> Void

    /// - Parameters:
    ///   - routes: what makes the route of each name this side serves, on the first call to it
    ///     (`nil`: none of that name), so that no table of every route is made beforehand.
    ///   - callLimit: how long the other side may take to answer a call (the time this side
    ///     spends serving the calls it makes back not counted), and to take what is sent.
    ///   - answersPings: whether the other side may ask this one whether it is alive (a
    ///     module's process answers the host's; the host takes no ping from a module).
    ///   - cpuBudget: the CPU time the other side may use in a call that has no time limit.
    ///   - onFailure: told once, when the link fails.
    ///   - onProblem: told each distinct problem of a call that cannot throw (one line).
    package init(
        channel: FrameChannel, peer: String,
        routes: @escaping @Sendable (String) -> (@Sendable () throws -> any RouteDispatching)? = { _ in nil },
        callLimit: Duration? = nil, answersPings: Bool = false, cpuBudget: CPUBudget? = nil,
        onFailure: @escaping @Sendable (RouteCallError) -> Void = { _ in }, onProblem: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.cpuBudget = cpuBudget
        self.channel = channel
        self.peer = peer
        self.routes = routes
        self.onFailure = onFailure
        self.onProblem = onProblem
        self.callLimit = callLimit
        self.answersPings = answersPings
        channel.setReceiveLimit(callLimit)
        channel.setSendLimit(callLimit)
    }

    /// Why the link failed, once it has.
    package var failed: RouteCallError? {
        lock.withLock { failure }
    }

    /// Whether this side is waiting for an answer of the other (on any thread): what the other
    /// side asks meanwhile is part of that call.
    package var isCalling: Bool {
        lock.withLock { !inFlight.isEmpty }
    }

    /// How many objects and callbacks this side holds for the other.
    package var exportedCount: Int {
        lock.withLock { exported.count }
    }

    // MARK: Calling

    /// Sends a call of `member` of `target` and waits for its answer, serving the other side's
    /// calls meanwhile.
    func call(_ target: Target, _ member: String, _ arguments: RouteArguments, waiting: CallWait = .limited) throws(RouteCallError)
        -> RouteAnswer
    {
        if target == .dead { throw .unavailable(peer: peer, reason: "an earlier call did not return the object") }
        if let problem = arguments.problem { throw .malformed("'\(member)': \(problem)") }
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        try sendReleases()
        nextCall += 1
        let id = nextCall
        var slots: [RouteMessage.WireSlot] = []
        for slot in arguments.slots {
            switch slot {
            case .value(let bytes): slots.append(.value(bytes))
            case .callback(let onMainActor, let body): slots.append(.callback(exportHeld(.callback(onMainActor: onMainActor, body))))
            case .object(let dispatcher): slots.append(.callback(exportHeld(.object(dispatcher))))
            }
        }
        // By route and member; objects and callbacks together, so that their numbers do not
        // make a name each.
        let name = if case .route(let route) = target { "\(route).\(member)" } else { "a returned object or callback.\(member)" }
        let began = ContinuousClock.now
        inFlight.append(name)
        defer {
            inFlight.removeLast()
            stats.record(name, ContinuousClock.now - began)
        }
        try send(RouteMessage.call(id: id, target: target, member: member, slots: slots).frame, descriptors: arguments.descriptors)
        // The other side has the call limit to answer, from now and again after each call of
        // its that this side served meanwhile (that time was this side's).
        let outer = (deadline, cpuWatch)
        defer { (deadline, cpuWatch) = outer }
        let limit = waiting == .forTheAnswer ? nil : callLimit
        deadline = limit.map { ContinuousClock.now + $0 }
        if limit == nil, let cpuBudget { cpuWatch = cpuBudget.used().map { CPUBudget.Watch(call: name, used: $0) } }
        while true {
            switch try receive() {
            case .answer(let answered, let outcome):
                guard answered == id else { throw fail(violation("answered call \(answered), which it was not asked")) }
                switch outcome {
                case .answered(let answer): return answer
                case .thrown(let type, let message): throw .thrown(type: Self.shown(type), message: Self.shown(message))
                case .refused(let why): throw .malformed("\(peer) refused '\(target.name).\(member)': \(Self.shown(why))")
                }
            case .call(let id, let target, let member, let slots):
                try serve(id: id, target: target, member: member, slots: slots)
                deadline = limit.map { ContinuousClock.now + $0 }
            case .release(let references):
                for reference in references { exported[reference] = nil }
            }
        }
    }

    /// Serves the other side's calls until it closes the link (`nil`) or the link fails.
    package func serveUntilClosed() -> RouteCallError? {
        lock.lock()
        defer { lock.unlock() }
        while failure == nil {
            do throws(RouteCallError) {
                try sendReleases()
                guard let message = try receive(endIsFailure: false) else { return nil }
                switch message {
                case .answer(let answered, _): throw fail(violation("answered call \(answered), which it was not asked"))
                case .call(let id, let target, let member, let slots):
                    try serve(id: id, target: target, member: member, slots: slots)
                    if endServing { return nil }
                case .release(let references):
                    for reference in references { exported[reference] = nil }
                }
            } catch {
                return error
            }
        }
        return failure
    }

    /// Watches, on a thread of its own, for the other side's end while nobody calls: a process
    /// that ends between calls (killed from outside while the app waits at Home) is named as it
    /// ends, not at the next call. The thread ends with the link.
    ///
    /// - Parameter process: the other side's process, when this side started it: its end ends
    ///   the link even while a process it started holds its end of the socket (a fork, then a
    ///   crash), where the socket alone would wait for ever.
    package func watchForEnd(ofProcess process: pid_t? = nil) {
        let descriptor = channel.descriptor
        let processEnd = process.map { ChildCommand.endDescriptor(of: $0) } ?? -1
        let watching = DetachedThread.start(named: "link end") { [self] in
            defer { if processEnd >= 0 { Glibc.close(processEnd) } }
            // POLLRDHUP (0x2000, a GNU name Glibc does not export to Swift): the peer closed its end.
            var watched = [pollfd(fd: descriptor, events: 0x2000, revents: 0), pollfd(fd: processEnd, events: Int16(POLLIN), revents: 0)]
            while true {
                let ready = poll(&watched, processEnd >= 0 ? 2 : 1, -1)
                if ready < 0 && errno == EINTR { continue }
                break
            }
            // Its process ended, its socket still open: a call waiting reads the end now.
            if watched[1].revents != 0 { shutdown(descriptor, Int32(SHUT_RDWR)) }
            // A call under way holds the lock and meets the end itself; then this finds it failed.
            lock.withLock {
                guard failure == nil else { return }
                _ = fail(.unavailable(peer: peer, reason: "its process ended while it was not called"))
            }
        }
        if !watching, processEnd >= 0 { Glibc.close(processEnd) }
    }

    /// Ends the link from this side: the other side reads its end.
    package func close() {
        // Before the lock: a thread serving this link holds it while it waits for the next
        // call, and only the end of the socket wakes it.
        closing.store(true, ordering: .sequentiallyConsistent)
        shutdown(channel.descriptor, Int32(SHUT_RDWR))
        lock.withLock {
            if failure == nil { failure = .unavailable(peer: peer, reason: "its link was closed") }
            exported.removeAll()
        }
    }

    // MARK: Serving

    private func serve(id: UInt64, target: Target, member: String, slots: [RouteMessage.WireSlot]) throws(RouteCallError) {
        let descriptors = arrivedDescriptors
        arrivedDescriptors = []
        defer { for descriptor in descriptors { Glibc.close(descriptor) } }
        let reader = RouteCallReader(
            slots: slots.map { slot in
                switch slot {
                case .value(let bytes): .value(bytes)
                case .callback(let reference): .callback(reference)
                }
            }, link: self, descriptors: descriptors)
        let outcome: RouteMessage.Outcome
        do {
            outcome = .answered(try dispatch(target, member, reader))
        } catch let refusal as Refusal {
            outcome = .refused(refusal.why)
        } catch {
            outcome = .thrown(type: String(reflecting: type(of: error)), message: Self.message(of: error))
        }
        // A call made while serving may have cut the link: then there is no one to answer.
        if let failure { throw failure }
        try send(.answer(id: id, outcome))
    }

    /// Why this side does not make a call (a member it lacks, a wrong thread): sent back as a
    /// refusal, not as the callee's error.
    private struct Refusal: Error {
        let why: String
    }

    /// What a call is made on, found with the lock held.
    private enum Callee {
        case dispatcher(any RouteDispatching)
        case callback(onMainActor: Bool, RemoteCallback.Body)
    }

    private func callee(of target: Target) throws -> Callee {
        switch target {
        case .route(let name):
            if let known = served[name] { return .dispatcher(known) }
            guard let make = routes(name) else { throw Refusal(why: "no route '\(name)' is served here") }
            let made = try make()
            served[name] = made
            return .dispatcher(made)
        case .object(let reference):
            switch exported[reference] {
            case .object(let object)?: return .dispatcher(object)
            case .callback(let onMainActor, let body)?: return .callback(onMainActor: onMainActor, body)
            case nil: throw Refusal(why: "no object \(reference) is held here (released, or never sent)")
            }
        case .dead:
            throw Refusal(why: "a call to an object that never arrived")
        }
    }

    /// Makes the call, with the lock let go while it runs when this thread serves from its loop
    /// (the caller holds it): another thread of this process that calls the other side
    /// meanwhile — a module's background work the call waits for — sends its call and reads
    /// its answer itself, as the other side is waiting for ours.
    private func dispatch(_ target: Target, _ member: String, _ reader: RouteCallReader) throws -> RouteAnswer {
        let found = try callee(of: target)
        // Only when this thread is in no call of its own: a call served inside one answers
        // before that call's answer comes, and another thread's frames must not come between.
        let letsGo = inFlight.isEmpty
        if letsGo { lock.unlock() }
        defer { if letsGo { lock.lock() } }
        switch found {
        case .callback(let onMainActor, let body):
            if onMainActor && !DetachedThread.isMain { throw Refusal(why: "a main-actor callback was called off the main thread") }
            try body(reader)
            return .void
        case .dispatcher(let dispatcher):
            if let answer = try dispatcher.dispatch(member, reader) { return answer }
            guard DetachedThread.isMain else {
                throw Refusal(why: "'\(member)' runs on the main actor, and was called off the main thread")
            }
            guard let answer = try MainActor.assumeIsolated({ try dispatcher.dispatchOnMainActor(member, reader) }) else {
                throw Refusal(why: "'\(target.name)' has no member '\(member)'")
            }
            return answer
        }
    }

    // MARK: Objects and callbacks

    func export(_ value: Exported) -> UInt64 {
        lock.withLock { exportHeld(value) }
    }

    private func exportHeld(_ value: Exported) -> UInt64 {
        nextReference += 1
        exported[nextReference] = value
        return nextReference
    }

    /// The other side's object `reference` is no longer held here: told to it with the next
    /// frame, at once when no call is under way.
    func release(_ reference: UInt64) {
        releases.withLock { $0.append(reference) }
        guard lock.try() else { return }
        defer { lock.unlock() }
        try? sendReleases()
    }

    private func sendReleases() throws(RouteCallError) {
        guard failure == nil else { return }
        let pending = releases.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        if !pending.isEmpty { try send(.release(pending)) }
    }

    // MARK: Failures

    /// A problem of a call that cannot throw, told once per member and problem; the link's own
    /// failure was told when it happened.
    package func report(_ error: RouteCallError, calling member: String) {
        if case .unavailable = error { return }
        var line = "\(peer): '\(member)': \(error)"
        if case .notCarried(let carried) = error {
            line = "'\(carried)' does not cross between processes (it is marked in-process only): the call was not made"
        }
        guard reported.withLock({ $0.insert(line).inserted }) else { return }
        onProblem(line)
    }

    func violation(_ what: String) -> RouteCallError {
        .unavailable(peer: peer, reason: "cut off: it \(what)")
    }

    /// Fails the link for good with `error`: told once, the socket shut.
    func fail(_ error: RouteCallError) -> RouteCallError {
        guard failure == nil else { return failure ?? error }
        // This side closed it: the end it meets is that close, told to nobody.
        let error = closing.load(ordering: .sequentiallyConsistent) ? .unavailable(peer: peer, reason: "its link was closed") : error
        failure = error
        exported.removeAll()
        for descriptor in arrivedDescriptors { Glibc.close(descriptor) }
        arrivedDescriptors = []
        shutdown(channel.descriptor, Int32(SHUT_RDWR))
        if !closing.load(ordering: .sequentiallyConsistent) { onFailure(error) }
        return error
    }

    private func send(_ message: RouteMessage) throws(RouteCallError) {
        try send(message.frame)
    }

    func send(_ frame: Frame, descriptors: [Int32] = []) throws(RouteCallError) {
        do throws(WireError) {
            try channel.send(frame, descriptors: descriptors)
        } catch {
            throw fail(.unavailable(peer: peer, reason: error == .closed ? "its process closed the link" : "\(error)"))
        }
    }
}
