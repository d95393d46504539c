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
        // No child at all, not even one that ended: nothing to look for in `/proc`, whose reads
        // a module's sandboxed process hands to the host one by one.
        if !hasChildren { return }
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

    /// Whether this process has a child, running or ended and not yet reaped (any thread's):
    /// one call, where listing them reads a file for each thread.
    static var hasChildren: Bool {
        var info = siginfo_t()
        return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD
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
        tree(below: pid).count + 1
    }

    /// The processes below `pid` (not itself), each read from its threads' `children`: none
    /// on a kernel without them.
    static func tree(below pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        var waiting = childrenFromTasks(of: "\(pid)") ?? []
        while let next = waiting.popLast(), found.count < 100_000 {
            found.append(next)
            waiting += childrenFromTasks(of: "\(next)") ?? []
        }
        return found
    }

    /// Ends `pid` and every process below it. Each is stopped first, round after round until
    /// a round finds none running that was not stopped: a stopped process starts no more and
    /// waits for none of its children, so no pid listed is reaped and given to another
    /// process before the kill; `pid`, their subreaper, adopts what each killed one leaves.
    /// Then each is killed once (a leader already ended whose threads run on included), and
    /// the kills are awaited until only the dead are left (for at most 2 s: one stuck in the
    /// kernel is left to end when it can). Killing `pid` first would hand what it started to
    /// whoever adopts orphans, still running.
    package static func killTree(_ pid: pid_t) {
        Glibc.kill(pid, SIGSTOP)
        var stopped: Set<pid_t> = []
        let began = ContinuousClock.now
        while ContinuousClock.now - began < .seconds(2) {
            let fresh = tree(below: pid).filter { !stopped.contains($0) }
            if fresh.isEmpty { break }
            for process in fresh {
                Glibc.kill(process, SIGSTOP)
                stopped.insert(process)
            }
        }
        var killed: Set<pid_t> = []
        while ContinuousClock.now - began < .seconds(4) {
            let below = tree(below: pid)
            for process in below where killed.insert(process).inserted { Glibc.kill(process, SIGKILL) }
            if below.allSatisfy(isDead) { break }
            usleep(500)
        }
        Glibc.kill(pid, SIGKILL)
    }

    /// Whether `pid` has ended (a zombie its parent has not waited for, or gone).
    static func isDead(_ pid: pid_t) -> Bool {
        guard let state = statFields(of: pid)?.first else { return true }
        guard state.elementsEqual([UInt8(ascii: "Z")]) || state.elementsEqual([UInt8(ascii: "X")]) else { return false }
        // A leader that ended while its other threads run on reads as a zombie too.
        return (threads(of: pid) ?? 1) <= 1
    }

    /// How many threads `pid` has (`/proc/PID/task`), or `nil` when it cannot be listed.
    private static func threads(of pid: pid_t) -> Int? {
        guard let tasks = opendir("/proc/\(pid)/task") else { return nil }
        defer { closedir(tasks) }
        var count = 0
        while let entry = readdir(tasks) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count
    }

    /// The CPU time the tree below `pid` has used, itself included: each process's own, and
    /// that of its children it waited for (`/proc/PID/stat`); `nil` when `pid` is gone.
    package static func cpuTime(ofTreeOf pid: pid_t) -> Duration? {
        guard let own = cpuTicks(of: pid) else { return nil }
        // One that ended meanwhile is counted in its parent's, once it is waited for.
        let total = tree(below: pid).reduce(own) { $0 + (cpuTicks(of: $1) ?? 0) }
        return .milliseconds(total * 1000 / max(1, sysconf(Int32(_SC_CLK_TCK))))
    }

    /// The clock ticks `pid` ran and those of its children it waited for: `stat`'s utime,
    /// stime, cutime and cstime.
    static func cpuTicks(of pid: pid_t) -> Int? {
        guard let fields = statFields(of: pid), fields.count > 14 else { return nil }
        return fields[11...14].reduce(0) { $0 + (Int(String(decoding: $1, as: UTF8.self)) ?? 0) }
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

    /// The parent of `pid`.
    static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = statFields(of: pid), fields.count > 1 else { return nil }
        return pid_t(String(decoding: fields[1], as: UTF8.self))
    }

    /// The fields of `pid`'s `stat` after its command name, the state first: read after the
    /// last `)` (a command name may hold any).
    static func statFields(of pid: pid_t) -> [ArraySlice<UInt8>]? {
        let descriptor = Glibc.open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return buffer[(close + 1)..<count].split(separator: UInt8(ascii: " "))
    }
}
