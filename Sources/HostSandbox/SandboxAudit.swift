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

    /// The payload a module's process sends with its descriptor: what its sandbox grants, one
    /// `r PATH` or `w PATH` a line.
    package static func grants(reads: [String], writes: [String]) -> [UInt8] {
        Array((reads.map { "r " + $0 } + writes.map { "w " + $0 }).joined(separator: "\n").utf8)
    }

    /// Notes and lets through the calls handed over on `notify` (which this takes) on a thread
    /// of its own, until no process uses the filter any more; `granted` is the process's
    /// payload (``grants(reads:writes:)``).
    package func watch(_ notify: Int32, granted: [UInt8]) {
        let (reads, writes) = Self.parse(granted)
        watching.add(1, ordering: .sequentiallyConsistent)
        let started = DetachedThread.start(named: "sandbox audit") { [self] in
            defer {
                close(notify)
                watching.subtract(1, ordering: .sequentiallyConsistent)
            }
            var call = modhost_refusal()
            while true {
                let result = modhost_sandbox_next_refusal(notify, &call)
                if result == EAGAIN { continue }
                guard result == 0 else { return }
                note(call, reads: reads, writes: writes)
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
        let reads = seen.reads.subtracting(seen.writes).filter { read in !writes.contains { Self.isWithin(read, $0) } }.sorted()
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

    private func note(_ call: modhost_refusal, reads: [String], writes: [String]) {
        let name = fixedCString(call.call)
        let path = fixedCString(call.path)
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
                guard !path.isEmpty else {
                    if !Self.fileCalls.contains(name) { seen.forbidden.insert(name) }
                    return
                }
                // What a call makes, removes or renames is its folder's to allow: the last
                // name (a symlink, say) is not followed.
                let isRead = call.writes == 0
                let resolved = Self.resolved(isRead ? Self.throughItsOwnProc(path, caller: call.caller) : path, followingLast: isRead)
                if call.writes != 0 {
                    if !writes.contains(where: { Self.isWithin(resolved, $0) }) { seen.writes.insert(resolved) }
                } else if !(reads + writes).contains(where: { Self.isWithin(resolved, $0) }) {
                    seen.reads.insert(resolved)
                }
            }
        }
    }

    static let fileCalls: Set<String> = [
        "open", "openat", "openat2", "creat", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
        "truncate", "link", "linkat", "symlink", "symlinkat", "mknod", "mknodat",
    ]

    /// `path` with its symlinks resolved as Landlock sees them: the file's, or its folder's for
    /// one not there yet (being made) or when not `followingLast`.
    static func resolved(_ path: String, followingLast: Bool = true) -> String {
        if followingLast, let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return path }
        let folder = String(path[..<slash])
        guard let real = realpath(folder, nil) else { return path }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + String(path[slash...])
    }

    /// `path`, or when it is a symlink to the caller's `/proc/self/…` (the loader's links to
    /// open descriptors), that file as the caller sees it: read here, `/proc/self` would be
    /// the host's.
    static func throughItsOwnProc(_ path: String, caller: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 4_096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return path }
        let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard target.hasPrefix("/proc/self/") else { return path }
        return "/proc/\(caller)/" + target.dropFirst("/proc/self/".count)
    }

    static func isWithin(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    static func parse(_ granted: [UInt8]) -> (reads: [String], writes: [String]) {
        var reads: [String] = []
        var writes: [String] = []
        for line in granted.split(separator: UInt8(ascii: "\n")) where line.count > 2 {
            let path = resolved(String(decoding: line.dropFirst(2), as: UTF8.self))
            if line.first == UInt8(ascii: "w") { writes.append(path) } else { reads.append(path) }
        }
        return (reads, writes)
    }

}
