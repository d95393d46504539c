import CHostSandbox
import Glibc
import HostProcesses
import Synchronization

/// The audit mode of a module's sandbox (`--sandbox-audit NAME`), for the module's author: its
/// process confines itself with no Landlock and a seccomp filter that hands every call its
/// sandbox would refuse, and every call that opens, makes or removes a file, to the host, which
/// notes it and lets it through. At the end the host says what the module used beyond what
/// every module may (its data folder, the system's libraries), as the `capability` lines of a
/// `module.manifest` — minijail's learning mode, per module.
package final class SandboxAudit: Sendable {
    /// What the module used, beyond what its sandbox grants without a declaration.
    private struct Seen {
        var network = false
        var programs: Set<String> = []
        var reads: Set<String> = []
        var writes: Set<String> = []
        /// Calls no module may make, by the words that name them.
        var forbidden: Set<String> = []
    }

    let module: String
    private let seen = Mutex(Seen())
    /// The watchers still running (one a process of the module).
    private let watching = Atomic<Int>(0)

    package init(module: String) { self.module = module }

    /// Notes and lets through the calls handed over on `notify` (which this takes) on a thread
    /// of its own, until no process uses the filter any more; `payload` is what the process's
    /// sandbox would grant (``SandboxGrants/payload(reads:writes:runs:processes:)``).
    package func watch(_ notify: Int32, granted payload: [UInt8]) {
        watching.add(1, ordering: .sequentiallyConsistent)
        let started = DetachedThread.start(named: "sandbox audit") { [self] in
            defer {
                close(notify)
                watching.subtract(1, ordering: .sequentiallyConsistent)
            }
            let granted = SandboxGrants(payload: payload)
            var call = modhost_refusal()
            while true {
                let result = modhost_sandbox_next_refusal(notify, &call)
                if result == EAGAIN { continue }
                guard result == 0 else { return }
                note(call, granted: granted)
                _ = modhost_sandbox_allow(notify, call.id)
            }
        }
        if !started {
            close(notify)
            watching.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    /// Waits until every process's watcher has seen its process end (at most `limit`).
    package func waitUntilDone(limit: Duration = .seconds(2)) {
        let deadline = ContinuousClock.now + limit
        while watching.load(ordering: .sequentiallyConsistent) > 0, ContinuousClock.now < deadline { usleep(5_000) }
    }

    /// What it used, as lines to print: the `capability` lines its manifest would need, then
    /// what no module may.
    package func summary() -> [String] {
        let seen = seen.withLock { $0 }
        var lines: [String] = []
        if seen.network { lines.append("capability network") }
        if !seen.programs.isEmpty { lines.append("capability exec   (it ran \(seen.programs.sorted().joined(separator: ", ")))") }
        let writes = seen.writes.sorted()
        let reads = seen.reads.subtracting(seen.writes).filter { read in !writes.contains { SandboxGrants.isWithin(read, $0) } }.sorted()
        lines += reads.map { "capability read \($0)" } + writes.map { "capability write \($0)" }
        let shown =
            lines.count > Self.mostLines ? Array(lines.prefix(Self.mostLines)) + ["… and \(lines.count - Self.mostLines) more"] : lines
        var said =
            shown.isEmpty
            ? ["module '\(module)': its sandbox audit: it used nothing beyond its data folder and what every module may"]
            : ["module '\(module)': its sandbox audit: its module.manifest would need"] + shown.map { "  " + $0 }
        if !seen.forbidden.isEmpty {
            said.append(
                "module '\(module)': its sandbox audit: it also tried what no module may: \(seen.forbidden.sorted().joined(separator: ", "))"
            )
        }
        said.append(
            "module '\(module)': its sandbox audit does not see environment variables: declare each it reads ('capability env NAME')")
        return said
    }

    static let mostLines = 40

    private func note(_ call: modhost_refusal, granted: SandboxGrants) {
        let name = fixedCString(call.call)
        seen.withLock { seen in
            switch name {
            case "socket":
                if Int32(truncatingIfNeeded: call.first) == AF_UNIX {
                    seen.forbidden.insert("a UNIX socket")
                } else {
                    seen.network = true
                }
            case "execve", "execveat":
                let program = fixedCString(call.program)
                seen.programs.insert(program.isEmpty ? "a program" : program)
            case "kill", "tkill", "tgkill": return  // a signal that ends a process: its own to send
            case "ioctl": seen.forbidden.insert("typing into the terminal")
            case "clone": seen.forbidden.insert("a namespace (clone)")
            default:
                guard let file = SandboxGrants.fileCall(call) else {
                    if !SandboxGrants.calls.contains(name) { seen.forbidden.insert(name) }
                    return
                }
                if !granted.covers(file) {
                    if file.writes { seen.writes.insert(file.path) } else { seen.reads.insert(file.path) }
                }
            }
        }
    }
}
