import CHostProcess
import Glibc

/// What a process of the host's may do to others, and the pipes it talks to children over.
package enum ProcessScope {
    /// Confines this process and what it starts to signalling only among themselves
    /// (Landlock, ABI 6 and later), before any library runs: a check's probe. `0` when
    /// confined, else the errno the kernel gave (`ENOSYS`, `EOPNOTSUPP`: no Landlock;
    /// `ENOTSUP`: below ABI 6).
    @discardableResult
    package static func confineSignals() -> Int32 { modhost_scope_signals() }

    /// A pipe whose two ends are close-on-exec from the start, so that no program another
    /// thread starts meanwhile inherits them (`ends[0]` reads, `ends[1]` writes); `false` with
    /// `errno` set when there is none.
    package static func pipe(_ ends: inout [Int32]) -> Bool {
        ends = [-1, -1]
        return modhost_pipe_cloexec(&ends) == 0
    }
}
