import Glibc
import HostProcesses
import Synchronization

// Reading the other side: frames within what is left of a call's time, pings, and what does not
// read — each a reason to cut the link (called with the link's lock held); how soon the next
// frame is looked for, and when serving ends.
extension RouteLink {
    /// Ends ``serveUntilClosed()`` once the call being served is answered: a module's process
    /// asked to stop ends then, not after the host's close has woken it.
    package func endServingAfterThisCall() {
        lock.withLock { endServing = true }
    }

    /// Calls `member` of route `route` as the link's last call: once its answer is read, the
    /// other side's end is expected (a module's process asked to stop ends after its answer),
    /// and is no failure to tell, as the end of a ``close()``. A failure before the answer (no
    /// answer in time, one that does not read) is told as any call's.
    package func lastCall(_ route: String, _ member: String) throws(RouteCallError) {
        // Held across the answer and the mark: the end watcher, which takes the lock, sees the mark.
        lock.lock()
        defer { lock.unlock() }
        _ = try call(.route(route), member, RouteArguments())
        closing.store(true, ordering: .sequentiallyConsistent)
    }

    /// Looks for the next frame for `look` before it sleeps (``FrameChannel/nextLook``): one
    /// known to come soon.
    package func lookForNextFrame(_ look: Duration) {
        lock.withLock { channel.nextLook = look }
    }

    func receive() throws(RouteCallError) -> RouteMessage {
        guard let message = try receive(endIsFailure: true) else { throw failure ?? .unavailable(peer: peer, reason: "its link ended") }
        return message
    }

    /// The next message; `nil` at the link's end when that is not a failure.
    func receive(endIsFailure: Bool) throws(RouteCallError) -> RouteMessage? {
        while true {
            guard let received = try receiveFrame(endIsFailure: endIsFailure) else { return nil }
            if received.kind == ModuleProcess.Kind.ping {
                // A module's process answers the host's pings; a ping to the host is not a
                // module's to send (and cannot keep a call it owes an answer alive).
                guard answersPings, received.payload.count <= 64 else {
                    throw fail(violation("sent a ping, which a module's process does not send, or one over 64 bytes"))
                }
                try send(Frame(kind: ModuleProcess.Kind.pong, payload: received.payload))
                continue
            }
            do throws(RouteCallError) {
                guard let message = try RouteMessage(received) else {
                    throw fail(violation("sent a frame of kind \(received.kind), which a route link does not take"))
                }
                return message
            } catch {
                throw fail(violation("sent a message that does not read: \(error)"))
            }
        }
    }

    /// The next frame, within what is left of the call's time; `nil` at the link's end when
    /// that is not a failure.
    func receiveFrame(endIsFailure: Bool) throws(RouteCallError) -> Frame? {
        let received: FrameChannel.Received?
        if deadline == nil, let cpuBudget, cpuWatch != nil {
            received = try receiveWatchingCPU(cpuBudget)
        } else {
            if deadline == nil { channel.setReceiveLimit(nil) }
            received = try receive(until: deadline)
        }
        guard let received else {
            if endIsFailure { throw fail(.unavailable(peer: peer, reason: "its process closed the link")) }
            return nil
        }
        // Descriptors are taken only with a call, for its dispatcher; any other frame's are closed.
        for descriptor in arrivedDescriptors { Glibc.close(descriptor) }
        arrivedDescriptors = received.frame.kind == RouteMessage.Kind.call ? received.descriptors : []
        if received.frame.kind != RouteMessage.Kind.call {
            for descriptor in received.descriptors { Glibc.close(descriptor) }
        }
        return received.frame
    }

    /// `channel.receive(until:)`, its errors a failure of the link but `timedOut` (the caller's to tell).
    private func receive(until due: ContinuousClock.Instant?, timeoutIsFailure: Bool = true) throws(RouteCallError)
        -> FrameChannel.Received?
    {
        do throws(WireError) {
            return try channel.receive(until: due)
        } catch {
            switch error {
            case .timedOut:
                if timeoutIsFailure { throw fail(.unavailable(peer: peer, reason: timeoutReason)) }
                throw .unavailable(peer: peer, reason: timeoutReason)
            case .closed: throw fail(.unavailable(peer: peer, reason: "its process closed the link"))
            case .system: throw fail(.unavailable(peer: peer, reason: "\(error)"))
            default: throw fail(violation("sent what is not a frame: \(error)"))
            }
        }
    }

    /// The next frame of a call without a time limit, the other side's CPU time read each
    /// ``CPUBudget/lookEvery`` meanwhile: past the budget within its window, the link fails,
    /// naming the call. A frame half read when a look is due is read on after it.
    private func receiveWatchingCPU(_ budget: CPUBudget) throws(RouteCallError) -> FrameChannel.Received? {
        while true {
            do throws(RouteCallError) {
                return try receive(until: ContinuousClock.now + budget.lookEvery, timeoutIsFailure: false)
            } catch {
                if failure != nil { throw error }
                guard let used = budget.used(), var watch = cpuWatch else { continue }
                let past = watch.note(used, of: budget)
                cpuWatch = watch
                guard past else { continue }
                let what =
                    "it used more than \(Self.seconds(budget.limit)) of CPU time within \(Self.seconds(budget.window)) of \(budget.shown(watch.call))"
                throw fail(.unavailable(peer: peer, reason: "\(what): stopped by its sandbox (\(budget.setting))"))
            }
        }
    }

    var timeoutReason: String {
        "it did not answer \(inFlight.last.map { "'\($0)'" } ?? "in time")\(callLimit.map { " within \(Self.seconds($0))" } ?? "")"
    }
}
