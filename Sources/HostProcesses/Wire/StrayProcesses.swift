import Glibc
import Synchronization

/// What a module's process leaves running when it ends by itself (a crash, an `_exit`) or is
/// killed from outside: the processes it started go to the nearest subreaper above it. The
/// host is one once it starts a module's process (``adopt()``), so they come here, and after
/// each module's process is reaped the host ends them. They are told from the host's own
/// children (a program an in-process module started) by the seccomp filter every process of
/// a sandboxed module's tree carries beyond the host's own (a container may give the host
/// some: its children inherit those, no more); a module whose sandbox is off carries none,
/// and what it leaves runs on.
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

    /// One sweep at a time: two would list the same stray, and the second signal a pid the
    /// first had reaped (and the system perhaps given to another process).
    private static let sweeping = Mutex(())

    /// `pid`, a module's process, was reaped: what it left behind is ended and reaped.
    static func reaped(_ pid: pid_t) {
        let (adopting, modules) = state.withLock { state in
            state.modules.remove(pid)
            return (state.adopting, state.modules)
        }
        // Most often the module's process was the host's only child: nothing to look at.
        guard adopting, Descendants.hasChildren, let own = filters(of: "self") else { return }
        sweeping.withLock { _ in
            for child in Descendants.childrenOfThisProcess() where !modules.contains(child) {
                guard let theirs = filters(of: "\(child)"), theirs > own else { continue }
                Descendants.killTree(child)
                _ = ChildCommand.wait(child, atMost: .seconds(1))
            }
        }
    }

    /// How many seccomp filters process `process` (its id, or `self`) runs under
    /// (`Seccomp_filters:` in its `status`); `nil` when it cannot be read.
    static func filters(of process: String) -> Int? {
        guard let status = ProcFile.read("/proc/\(process)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Seccomp_filters:") })
        else { return nil }
        return Int(line.dropFirst("Seccomp_filters:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }))
    }
}
