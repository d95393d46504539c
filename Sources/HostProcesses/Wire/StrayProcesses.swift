import Glibc
import Synchronization

/// What a module's process leaves running when it ends by itself (a crash, an `_exit`) or is
/// killed from outside: the processes it started go to the nearest subreaper above it. The
/// host is one once it starts a module's process (``adopt()``), so they come here, and after
/// each module's process is reaped the host ends them. They are told from the host's own
/// children (a program an in-process module started) by the seccomp filter every process of
/// a sandboxed module's tree carries and the host never does; a module whose sandbox is off
/// carries none, and what it leaves runs on.
package enum StrayProcesses {
    /// Whether this process adopts orphans, and the module processes it has that still run.
    private static let state = Mutex<(adopting: Bool, modules: Set<pid_t>)>((false, []))

    /// Makes this process the subreaper of what a module's process leaves behind: called by
    /// the host before it starts the first (a test or a bench that starts module processes
    /// itself does not adopt, and ends nothing it did not start).
    package static func adopt() {
        let first = state.withLock { state in
            defer { state.adopting = true }
            return !state.adopting
        }
        if first { Descendants.adopt() }
    }

    /// `pid` is a module's process: no stray, while it runs.
    static func started(_ pid: pid_t) {
        state.withLock { _ = $0.modules.insert(pid) }
    }

    /// `pid`, a module's process, was reaped: what it left behind is ended and reaped.
    static func reaped(_ pid: pid_t) {
        let (adopting, modules) = state.withLock { state in
            state.modules.remove(pid)
            return (state.adopting, state.modules)
        }
        guard adopting else { return }
        for child in Descendants.childrenOfThisProcess() where !modules.contains(child) && isConfined(child) {
            Descendants.killTree(child)
            _ = ChildCommand.wait(child, atMost: .seconds(1))
        }
    }

    /// Whether `pid` runs under a seccomp filter (`Seccomp:` in its `status` is not 0).
    static func isConfined(_ pid: pid_t) -> Bool {
        guard let status = ProcFile.read("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Seccomp:") })
        else { return false }
        return line.dropFirst("Seccomp:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }) != "0"
    }
}
