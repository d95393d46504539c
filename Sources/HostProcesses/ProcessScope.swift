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

    /// Makes this process not dumpable (`PR_SET_DUMPABLE` 0), before it starts a module's own
    /// process: its `/proc/PID/environ`, `maps` and the rest that `/proc` guards by ptrace's
    /// check are then open only to a process with `CAP_SYS_PTRACE`, which a module's sandboxed
    /// process drops (its sandbox lets it read `/proc`, which libdispatch needs, and Landlock
    /// alone lets it read a parent's environment). No core dumps of the host either: a module
    /// in its process may have left secrets in its memory. A child it starts is dumpable again.
    package static func keepFromModules() {
        _ = modhost_not_dumpable()
    }

    /// A pipe whose two ends are close-on-exec from the start, so that no program another
    /// thread starts meanwhile inherits them (`ends[0]` reads, `ends[1]` writes); `false` with
    /// `errno` set when there is none.
    package static func pipe(_ ends: inout [Int32]) -> Bool {
        ends = [-1, -1]
        return modhost_pipe_cloexec(&ends) == 0
    }
}
