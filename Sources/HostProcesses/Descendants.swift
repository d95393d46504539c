import CHostProcess
import Glibc

/// Everything below this process, made its own and ended with it: a check and each of its
/// probes become child subreapers (a process below whose parent ends, after `setsid` or a
/// double fork, becomes a child here, never init's), and on every way out kill and reap all of
/// them, so that no library's constructor leaves a process running after `check`.
package enum Descendants {
    /// Makes this process the subreaper of everything it starts from now on.
    package static func adopt() {
        _ = modhost_become_subreaper()
    }

    /// Kills and reaps every process below this one, until none is left: each round kills this
    /// process's children, whose own children then become its children for the next round.
    /// Async-signal-unsafe parts (reading `/proc`) are fine on the paths that call it: the
    /// signal path runs on a thread of its own.
    package static func end() {
        for _ in 0..<1_000 {
            let children = childrenOfThisProcess()
            if children.isEmpty {
                // What ended meanwhile is reaped; nothing left to wait for ends the loop.
                var status: Int32 = 0
                while waitpid(-1, &status, WNOHANG) > 0 {}
                if childrenOfThisProcess().isEmpty { return }
                continue
            }
            for child in children {
                kill(child, SIGKILL)
            }
            var status: Int32 = 0
            for child in children {
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            }
        }
    }

    /// The processes whose parent is this one: from each thread's `children` in
    /// `/proc/self/task` (a handful of small reads), else — a kernel without them — from
    /// every process's `stat` in `/proc`, which costs a millisecond or more on a busy machine
    /// (each exit of a module's own process paid it twice, while the host waited).
    static func childrenOfThisProcess() -> [pid_t] {
        childrenFromTasks() ?? childrenFromEveryProcess()
    }

    /// The processes of the tree below `pid`, itself included: a module's process and what
    /// it started (which it adopts when their parent ends: it is their subreaper). Each read
    /// from its threads' `children`; 1 on a kernel without them.
    package static func count(inTreeOf pid: pid_t) -> Int {
        var count = 0
        var waiting = [pid]
        while let next = waiting.popLast(), count < 100_000 {
            count += 1
            waiting += childrenFromTasks(of: "\(next)") ?? []
        }
        return count
    }

    /// The children each thread of process `process` (its id, or `self`) started or adopted
    /// (`/proc/PROCESS/task/TID/children`), or `nil` when this kernel does not list them.
    static func childrenFromTasks(of process: String = "self") -> [pid_t]? {
        guard let tasks = opendir("/proc/\(process)/task") else { return nil }
        defer { closedir(tasks) }
        var children: [pid_t] = []
        while let entry = readdir(tasks) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard pid_t(name) != nil else { continue }
            let descriptor = Glibc.open("/proc/\(process)/task/\(name)/children", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                // A thread that ended meanwhile has no file; a kernel without the files has none.
                if errno == ENOENT, access("/proc/\(process)/task/\(name)", F_OK) == 0 { return nil }
                continue
            }
            defer { close(descriptor) }
            let text = ProcFile.bytes(of: descriptor) ?? []
            children += text.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }).compactMap {
                pid_t(String(decoding: $0, as: UTF8.self))
            }
        }
        return children
    }

    /// The processes whose parent is this one, from `/proc` (each `stat`'s fourth field).
    static func childrenFromEveryProcess() -> [pid_t] {
        let me = getpid()
        guard let folder = opendir("/proc") else { return [] }
        defer { closedir(folder) }
        var children: [pid_t] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), pid != me, parent(of: pid) == me else { continue }
            children.append(pid)
        }
        return children
    }

    /// The parent of `pid`, read after the last `)` of its `stat` (a command name may hold any).
    static func parent(of pid: pid_t) -> pid_t? {
        let descriptor = Glibc.open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // ") S 1234 …": the state, then the parent.
        let fields = buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 1 else { return nil }
        return pid_t(String(decoding: fields[1], as: UTF8.self))
    }
}
