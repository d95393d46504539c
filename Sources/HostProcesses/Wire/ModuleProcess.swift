import Glibc

/// A module's process of its own, from the host's side: started with its end of a socketpair
/// as descriptor 3, greeted, asked whether it is alive, and ended — its end told from its wait
/// status (``ChildEnd``).
package final class ModuleProcess {
    /// Frame kinds after the hello.
    package enum Kind {
        package static let ping: UInt8 = 2
        package static let pong: UInt8 = 3
        /// The child could not go on: its reason, as UTF-8 text (shown escaped).
        package static let failure: UInt8 = 4
        /// Before its hello: the descriptor on which its sandbox hands over the calls it refuses.
        package static let refusals: UInt8 = 8
    }

    /// The child's end of the link.
    package static let linkDescriptor: Int32 = 3

    /// The name of process `pid`'s temporary folder in its module's data folder: the child
    /// makes it, the host removes it once the child has ended (however it ended).
    package static func temporaryFolderName(of pid: pid_t) -> String { ".tmp-\(pid)" }

    package let pid: pid_t
    /// What the child said first (the empty hello until ``greet(_:passing:helloLimit:)``).
    package private(set) var hello = Hello(hostVersion: "", sdkVersion: "", contracts: [])
    /// The link, for the route calls that follow the hellos.
    package let channel: FrameChannel
    /// How it ended, once it has.
    private var ended: ChildEnd??
    /// What it writes outside a loan of the terminal, shown by this process.
    private let output: ChildOutput?
    /// Run once, with its process id, after it has ended and been reaped, whichever way it
    /// ended (its own end, a kill, a failed hello): what it leaves to clear (its temporary
    /// folder). Set before it is greeted.
    package var afterEnd: (@Sendable (pid_t) -> Void)?

    /// What went wrong starting a module's process.
    package enum StartError: Error, Equatable {
        /// It could not be started (posix_spawn's reason).
        case notStarted(String)
        /// The link failed before the hellos were said.
        case link(WireError)
        /// It ended or refused before its hello: its reason when it gave one, and how it ended.
        case failed(reason: String?, end: ChildEnd?)
        /// Its hello does not agree with the host's.
        case mismatch(String)
    }

    /// Starts `program` (the running `modhost` in its module-host mode), says `hello` (with
    /// `descriptors`: the library file the host checked, which the child compares with what it
    /// checks before it opens anything) and reads the child's
    /// (``greet(_:passing:helloLimit:refusals:)``).
    package convenience init(
        _ program: ChildCommand.Program, hello mine: Hello, passing descriptors: [Int32] = [], environment: [String: String]? = nil,
        helloLimit: Duration = .seconds(10), refusals: (_ notify: Int32, _ granted: [UInt8], _ pid: Int32) -> Void
    ) throws(StartError) {
        try self.init(spawning: program, environment: environment)
        try greet(mine, passing: descriptors, helloLimit: helloLimit, refusals: refusals)
    }

    /// Starts `program` and says nothing yet: the child's own start (its dynamic linking,
    /// most of it) runs while this process goes on; ``greet(_:passing:helloLimit:)`` follows.
    /// With `showing`, what the child writes on its standard output and error outside a loan
    /// of the terminal comes through a pipe, a line at a time (``ChildOutput``); without, it
    /// has this process's.
    package init(
        spawning program: ChildCommand.Program, environment: [String: String]? = nil,
        showing show: (@Sendable (String) -> Void)? = nil
    ) throws(StartError) {
        let (host, child): (FrameChannel, Int32)
        do throws(WireError) {
            (host, child) = try FrameChannel.pairForChild()
        } catch {
            throw .link(error)
        }
        let output = show == nil ? nil : ChildOutput()
        // Not started on the terminal instead: it would write there raw.
        if show != nil, output == nil {
            Glibc.close(child)
            throw .notStarted("no pipe for its output: \(String(cString: strerror(errno)))")
        }
        let started = ChildCommand.start(program, output: .inherited, environment: environment, link: child, childOutput: output)
        // The parent's copy of the child's end goes at once: the child's end is then the
        // child's alone, and its end reads as the end of the link.
        Glibc.close(child)
        guard let pid = started.pid else {
            output?.childNotStarted()
            throw .notStarted(String(cString: strerror(started.error)))
        }
        if let output, let show, !output.childStarted(showing: show) {
            Self.kill(pid)
            throw .notStarted("no thread to read its output")
        }
        StrayProcesses.started(pid)
        self.pid = pid
        self.output = output
        channel = host
    }

    /// Says `hello` (with `descriptors`) and reads the child's, waiting at most `helloLimit`
    /// for it (the child opens the module's library first: a constructor that never returns
    /// must not hold the host). A child that fails here is reaped or killed.
    ///
    /// - Parameter refusals: Given, at once, the descriptor on which the child's sandbox hands
    ///   over the calls it refuses and its calls on files (before its hello: the module's
    ///   library, opened before the hello, makes such calls, which wait until they are
    ///   answered), what its sandbox grants of the files, and the child's process id; it then
    ///   owns the descriptor, and must answer every call (`SandboxRefusals`): closed, each
    ///   such call fails, the module's library cannot even be opened.
    package func greet(
        _ mine: Hello, passing descriptors: [Int32] = [], helloLimit: Duration = .seconds(10),
        refusals: (_ notify: Int32, _ granted: [UInt8], _ pid: Int32) -> Void
    ) throws(StartError) {
        try sayHello(mine, passing: descriptors, helloLimit: helloLimit)
        if let error = readHello(mine, refusals: refusals) { throw error }
    }

    /// ``greet(_:passing:helloLimit:refusals:)``, the child's hello read on a thread of its own:
    /// the host goes on (it loads its other modules) while the child starts, and waits for the
    /// hello when it needs the module (``Greeting/wait()``). `refusals` is told on that thread,
    /// as soon as the child sends them: the child's library waits for their answers.
    package func greetAside(
        _ mine: Hello, passing descriptors: [Int32] = [], helloLimit: Duration = .seconds(10),
        refusals: @escaping @Sendable (_ notify: Int32, _ granted: [UInt8], _ pid: Int32) -> Void
    ) -> Greeting {
        let greeting = Greeting()
        do throws(StartError) {
            try sayHello(mine, passing: descriptors, helloLimit: helloLimit)
        } catch {
            greeting.finish(error)
            return greeting
        }
        // Handed to that thread until `wait` returns: the host does not touch the process before.
        nonisolated(unsafe) let process = self
        let read: @Sendable () -> Void = { greeting.finish(process.readHello(mine, refusals: refusals)) }
        if !DetachedThread.start(named: "hello", read) { read() }
        return greeting
    }

    /// The child's answer to the host's hello, read aside (``greetAside(_:passing:helloLimit:refusals:)``).
    package final class Greeting: @unchecked Sendable {
        // `outcome` is written once, by the reading thread before it posts `done`; read after
        // `wait` took `done` (the semaphore orders the two), by one thread.
        private let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        private var outcome: StartError?
        private var waited = false

        init() { sem_init(done, 0, 0) }

        deinit {
            sem_destroy(done)
            done.deallocate()
        }

        fileprivate func finish(_ error: StartError?) {
            outcome = error
            sem_post(done)
        }

        /// Waits for the child's hello (at most the hello limit, which the read keeps).
        ///
        /// - Throws: ``StartError`` as ``ModuleProcess/greet(_:passing:helloLimit:refusals:)`` does.
        package func wait() throws(StartError) {
            if !waited {
                while sem_wait(done) != 0 {
                    // Only an interrupted wait is waited again; any other failure is one of the hello's.
                    guard errno == EINTR else { throw .link(.system("sem_wait", String(cString: strerror(errno)))) }
                }
                waited = true
            }
            if let outcome { throw outcome }
        }
    }

    private func sayHello(_ mine: Hello, passing descriptors: [Int32], helloLimit: Duration) throws(StartError) {
        channel.setReceiveLimit(helloLimit)
        do throws(WireError) {
            try channel.send(mine.frame, descriptors: descriptors)
        } catch {
            throw startError(error)
        }
    }

    /// Reads the child's hello (after its sandbox's refusals); why it failed, or `nil`.
    private func readHello(_ mine: Hello, refusals: (_ notify: Int32, _ granted: [UInt8], _ pid: Int32) -> Void) -> StartError? {
        let host = channel
        do {
            var received = try host.receive()
            // Its sandbox's refusals come first, once (a second is not trusted).
            if let frame = received, frame.frame.kind == Kind.refusals {
                if frame.descriptors.count == 1 {
                    refusals(frame.descriptors[0], frame.frame.payload, pid)
                } else {
                    Self.close(frame.descriptors)
                }
                received = try host.receive()
            }
            guard let first = received else { throw StartError.failed(reason: nil, end: reaped()) }
            Self.close(first.descriptors)
            if first.frame.kind == Kind.failure {
                // Shown as text only: its control characters (a line's end included) as `?`.
                let reason = String(decoding: first.frame.payload.prefix(2_000), as: UTF8.self).unicodeScalars.map { scalar in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? "?" : String(scalar)
                }.joined()
                throw StartError.failed(reason: reason, end: reaped())
            }
            let theirs = try Hello(first.frame)
            if let why = Hello.mismatch(mine: mine, theirs: theirs) { throw StartError.mismatch(why) }
            hello = theirs
        } catch {
            return startError(error)
        }
        host.setReceiveLimit(Self.answerLimit)
        return nil
    }

    /// What went wrong before the hellos were said, the child reaped or killed as it must be.
    private func startError(_ error: any Error) -> StartError {
        switch error {
        case let error as StartError:
            if case .mismatch = error { killed() }
            return error
        case let error as WireError:
            // A child that went before the hellos ended on its own: say how.
            if error == .closed { return .failed(reason: nil, end: reaped()) }
            killed()
            return .link(error)
        default:
            killed()
            return .link(.system("hello", "\(error)"))
        }
    }

    /// Reaps a child that ended its side before the hellos, and remembers how it ended.
    private func reaped() -> ChildEnd? {
        let end = Self.reap(pid)
        record(end)
        return end
    }

    /// Remembers how the child ended, and runs what follows its end (its folder's removal).
    private func record(_ end: ChildEnd?) {
        ended = .some(end)
        output?.waitUntilShown()
        afterEnd?(pid)
    }

    /// Kills and reaps a child that cannot be talked to.
    private func killed() {
        Self.kill(pid)
        record(nil)
    }

    /// How long a ping's answer may take.
    package static let answerLimit: Duration = .seconds(5)

    /// Ends a child that cannot be talked to, and reaps it.
    private static func kill(_ pid: pid_t) {
        Descendants.killTree(pid)
        _ = ChildCommand.wait(pid)
        StrayProcesses.reaped(pid)
    }

    private static func close(_ descriptors: [Int32]) {
        for descriptor in descriptors { Glibc.close(descriptor) }
    }

    deinit {
        guard ended == nil else { return }
        Self.kill(pid)
        output?.waitUntilShown()
        afterEnd?(pid)
    }

    /// Asks the child whether it is alive; its answer's bytes must be the question's.
    ///
    /// - Throws: ``WireError`` when the link fails or the child answers something else.
    package func ping(_ token: [UInt8] = Array("alive?".utf8)) throws(WireError) {
        try channel.send(Frame(kind: Kind.ping, payload: token))
        guard let answer = try channel.receive() else { throw .system("the module's process", "closed its link") }
        Self.close(answer.descriptors)
        guard answer.frame == Frame(kind: Kind.pong, payload: token) else {
            throw .system("the module's process", "answered a ping with a frame of kind \(answer.frame.kind)")
        }
    }

    /// Whether the child has ended already (reaped, and its end recorded, if so): one started
    /// early may have been ended from outside while it waited for the host's hello.
    package var hasEnded: Bool {
        if ended != nil { return true }
        guard let status = ChildCommand.poll(pid) else { return false }
        StrayProcesses.reaped(pid)
        record(ChildEnd(waitStatus: status, sentByHost: nil, sentByItself: SelfSignals.take(pid)))
        return true
    }

    /// Ends the child: closes the link (it ends at that), then, when it has not ended after
    /// `grace`, kills it. How it ended.
    package func end(grace: Duration = .seconds(2)) -> ChildEnd? {
        if let ended { return ended }
        shutdown(channel.descriptor, Int32(SHUT_RDWR))
        let end = Self.reap(pid, grace: grace)
        record(end)
        return end
    }

    /// How a child that ended its side of the link ended: waited for a moment, then killed.
    private static func reap(_ pid: pid_t, grace: Duration = .seconds(2)) -> ChildEnd? {
        let (status, killed) = ChildCommand.wait(pid, atMost: grace, ending: Descendants.killTree)
        StrayProcesses.reaped(pid)
        return ChildEnd(waitStatus: status, sentByHost: killed ? SIGKILL : nil, sentByItself: SelfSignals.take(pid))
    }
}
