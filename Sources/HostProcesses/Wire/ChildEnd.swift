import Glibc

/// How a process of the host's own ended, told from its wait status: by itself (an exit, or a
/// fault of its own code) or from outside (a signal someone else sent). Only a module's own
/// end counts against it; a `kill -9` from a shell, an out-of-memory kill or the host's own
/// watchdog never does.
package enum ChildEnd: Equatable, Sendable {
    /// It called `exit` (or returned from `main`) with this status.
    case exited(Int32)
    /// Its own code faulted: a signal a process gets from what it runs (SIGSEGV, SIGBUS,
    /// SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS).
    case crashed(signal: Int32)
    /// A signal someone else sent ended it (SIGKILL, SIGTERM, SIGINT, SIGHUP, …).
    case killedFromOutside(signal: Int32)
    /// The host ended it with this signal (its watchdog after a hang, or its own stop).
    case endedByHost(signal: Int32)
    /// It sent itself this signal (``SelfSignals``), which ended it.
    case endedItself(signal: Int32)

    /// The end a wait status describes; `sentByHost` is the signal the host itself sent this
    /// process, if it sent one.
    /// `sentByItself` is the signal it sent itself, if it sent one (``SelfSignals``).
    package init?(waitStatus status: Int32, sentByHost: Int32? = nil, sentByItself: Int32? = nil) {
        let signal = status & 0x7f
        if signal == 0 {
            self = .exited((status >> 8) & 0xff)
        } else if signal == 0x7f {
            return nil  // stopped, not ended
        } else if signal == sentByHost {
            self = .endedByHost(signal: signal)
        } else if Self.faults.contains(signal) {
            // A fault's signal is a crash, whoever sent it (a crash handler raises it again).
            self = .crashed(signal: signal)
        } else if signal == sentByItself {
            self = .endedItself(signal: signal)
        } else {
            self = .killedFromOutside(signal: signal)
        }
    }

    /// Whether this end is the module's own doing.
    package var countsAgainstTheModule: Bool {
        switch self {
        case .exited, .crashed, .endedItself: true
        case .killedFromOutside, .endedByHost: false
        }
    }

    /// One line of what happened, after the module's name ("Photos …").
    package var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .crashed(let signal): "crashed (\(Self.name(signal)))"
        case .killedFromOutside(let signal): "was ended from outside (\(Self.name(signal))); this does not count against it"
        case .endedByHost(let signal): "was ended by the host (\(Self.name(signal)))"
        case .endedItself(let signal): "ended itself (\(Self.name(signal)))"
        }
    }

    private static let faults: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    private static func name(_ signal: Int32) -> String {
        guard let text = strsignal(signal) else { return "signal \(signal)" }
        return "signal \(signal), \(String(cString: text))"
    }
}
