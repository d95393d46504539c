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
    }

    /// The child's end of the link.
    package static let linkDescriptor: Int32 = 3

    package let pid: pid_t
    /// What the child said first.
    package let hello: Hello
    private let channel: FrameChannel
    private var sentSignal: Int32?
    private var status: Int32?

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

    /// Starts `program` (the running `modhost` in its module-host mode), says `hello` and reads
    /// the child's.
    package init(_ program: ChildCommand.Program, hello mine: Hello, environment: [String: String]? = nil) throws(StartError) {
        let (host, child): (FrameChannel, FrameChannel)
        do throws(WireError) {
            (host, child) = try FrameChannel.pair()
        } catch {
            throw .link(error)
        }
        let started = ChildCommand.start(program, output: .inherited, environment: environment, link: child.descriptor)
        guard let pid = started.pid else { throw .notStarted(String(cString: strerror(started.error))) }
        self.pid = pid
        channel = host
        // The parent's copy of the child's end closes here (the child has its own as
        // descriptor 3): the child's end of the link is then the child's alone.
        withExtendedLifetime(child) {}
        do {
            try host.send(mine.frame)
            guard let first = try host.receive() else { throw StartError.failed(reason: nil, end: Self.reap(pid)) }
            if first.frame.kind == Kind.failure {
                throw StartError.failed(reason: String(decoding: first.frame.payload, as: UTF8.self), end: Self.reap(pid))
            }
            let theirs = try Hello(first.frame)
            if let why = Hello.mismatch(mine: mine, theirs: theirs) { throw StartError.mismatch(why) }
            hello = theirs
        } catch let error as StartError {
            if case .mismatch = error { Self.kill(pid) }
            throw error
        } catch let error as WireError {
            Self.kill(pid)
            throw .link(error)
        } catch {
            Self.kill(pid)
            throw .link(.system("hello", "\(error)"))
        }
    }

    /// Ends a child that cannot be talked to, and reaps it.
    private static func kill(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        _ = reap(pid)
    }

    deinit {
        if status == nil { Self.kill(pid) }
    }

    /// Asks the child whether it is alive; its answer's bytes must be the question's.
    ///
    /// - Throws: ``WireError`` when the link fails or the child answers something else.
    package func ping(_ token: [UInt8] = Array("alive?".utf8)) throws(WireError) {
        try channel.send(Frame(kind: Kind.ping, payload: token))
        guard let answer = try channel.receive() else { throw .system("the module's process", "closed its link") }
        guard answer.frame == Frame(kind: Kind.pong, payload: token) else {
            throw .system("the module's process", "answered a ping with a frame of kind \(answer.frame.kind)")
        }
    }

    /// Ends the child: closes the link (it ends at that), then, when it has not ended after
    /// `grace`, kills it. How it ended.
    package func end(grace: Duration = .seconds(2)) -> ChildEnd? {
        if let status { return ChildEnd(waitStatus: status, sentByHost: sentSignal) }
        shutdown(channel.descriptor, Int32(SHUT_RDWR))
        let deadline = ContinuousClock.now + grace
        while ContinuousClock.now < deadline {
            if let ended = ChildCommand.poll(pid) {
                status = ended
                return ChildEnd(waitStatus: ended, sentByHost: sentSignal)
            }
            usleep(2_000)
        }
        sentSignal = SIGKILL
        Glibc.kill(pid, SIGKILL)
        let ended = ChildCommand.wait(pid)
        status = ended
        return ChildEnd(waitStatus: ended, sentByHost: sentSignal)
    }

    private static func reap(_ pid: pid_t) -> ChildEnd? {
        ChildEnd(waitStatus: ChildCommand.wait(pid))
    }
}
