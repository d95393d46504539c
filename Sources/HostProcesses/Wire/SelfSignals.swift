import Synchronization

/// The signals module processes sent themselves, by process id: noted by the host as the
/// process's seccomp filter hands the call over (``ChildEnd/endedItself(signal:)``), so that a
/// process that ended itself with `kill(getpid(), SIGKILL)` is not taken for one ended from
/// outside, which its wait status alone cannot tell.
package enum SelfSignals {
    private static let sent = Mutex<[Int32: Int32]>([:])

    /// Notes that process `pid` sent itself `signal` (the latest counts).
    package static func note(_ signal: Int32, by pid: Int32) {
        sent.withLock { $0[pid] = signal }
    }

    /// The signal process `pid` sent itself, forgotten as it is taken (its id may be reused).
    package static func take(_ pid: Int32) -> Int32? {
        sent.withLock { $0.removeValue(forKey: pid) }
    }
}
