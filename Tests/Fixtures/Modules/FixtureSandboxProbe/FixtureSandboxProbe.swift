import Foundation
import ModuleKit

/// Test module: its command `try WHAT [ARGUMENT]` really does WHAT and prints one line, what
/// it did and how that went (`read /etc/hostname: refused (Permission denied)`), so that the
/// tests see what its sandbox lets through. WHAT:
/// - `read PATH`, `write PATH` (creates or appends to the file), `remove PATH`, `move PATH`
///   and `link PATH` (renames it, or links it, into its own data folder);
/// - `own` (writes and reads back a file in its own data folder);
/// - `connect PORT` (TCP to 127.0.0.1), `udp` (opens a UDP socket), `flood N` (N of them);
/// - `unix` (a UNIX socket), `tiocsti` (types into the terminal), `uring` (an io_uring),
///   `clone` (a child in a new user namespace), `threads` (whether every thread is confined);
/// - `env NAME` (whether the variable is set), `procenv NAME` (whether /proc/self/environ
///   holds it);
/// - `signal` (signal 0 to the host, its parent), `term` (SIGTERM to the host), `group`
///   (SIGTERM to its process group, the host's), `hostenv` (reads the host's
///   `/proc/PID/environ`), `unshare` (a new user namespace),
///   `peek` (`process_vm_readv` of the host's memory), `exec [PROGRAM]` (runs /bin/true, or
///   PROGRAM);
/// - `allocate MIB` (maps and touches that much memory), `dispatch` (blocks libdispatch's
///   workers long enough for its monitor to look at them);
/// - `spin` (burns CPU until it is ended), `spin child` (a process it starts burns it while it
///   waits), `orphan` (a process it starts burns it, and the module's process aborts),
///   `idle SECONDS` (sleeps, burning none).
final class FixtureSandboxProbe: Module {
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "try", summary: "Try something its sandbox may refuse", usage: "try WHAT [ARGUMENT]") { invocation in
                let what = invocation.arguments.first ?? ""
                let argument = invocation.arguments.dropFirst().first ?? ""
                let outcome = Self.attempt(what, argument, folder: context.storage.folder)
                context.ui.print("\(([what, argument].filter { !$0.isEmpty }).joined(separator: " ")): \(outcome)")
            }
        ]
    }

    /// "ok", or "refused (" the error ")".
    static func attempt(_ what: String, _ argument: String, folder: String) -> String {
        func result(_ succeeded: Bool) -> String {
            succeeded ? "ok" : "refused (\(String(cString: strerror(errno))))"
        }
        switch what {
        case "read":
            let fd = open(argument, O_RDONLY)
            defer { if fd >= 0 { close(fd) } }
            return result(fd >= 0)
        case "write":
            let fd = open(argument, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            defer { if fd >= 0 { close(fd) } }
            return result(fd >= 0 && write(fd, "x", 1) == 1)
        case "remove": return result(unlink(argument) == 0)
        case "move": return result(rename(argument, folder + "/moved") == 0)
        case "link": return result(link(argument, folder + "/linked") == 0)
        case "fork":
            // Up to `argument` processes that wait to be ended, then ended: how many started.
            var started: [pid_t] = []
            var failure = ""
            for _ in 0..<(Int(argument) ?? 0) {
                let child = fork()
                if child == 0 {
                    while true { pause() }
                }
                guard child > 0 else {
                    failure = ", then " + result(false)
                    break
                }
                started.append(child)
            }
            for child in started {
                kill(child, SIGKILL)
                var status: Int32 = 0
                waitpid(child, &status, 0)
            }
            return "\(started.count) started\(failure)"
        case "through":
            // A symlink it makes in its own folder to `argument`, read through.
            let link = folder + "/through"
            unlink(link)
            guard symlink(argument, link) == 0 else { return result(false) }
            let fd = open(link, O_RDONLY)
            defer { if fd >= 0 { close(fd) } }
            return result(fd >= 0)
        case "own":
            let path = folder + "/probe"
            guard FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)) else { return result(false) }
            return result(FileManager.default.contents(atPath: path) == Data("mine".utf8))
        case "connect":
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return result(false) }
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(argument) ?? 0).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            return result(connected == 0)
        case "flood":
            // Many refused calls at once: each told, up to the watcher's cap.
            var refused = 0
            for _ in 0..<(Int(argument) ?? 0) {
                let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
                if fd >= 0 { close(fd) } else { refused += 1 }
            }
            return "\(refused) refused"
        case "udp":
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            defer { if fd >= 0 { close(fd) } }
            return result(fd >= 0)
        case "signal": return result(kill(getppid(), 0) == 0)
        case "term": return result(kill(getppid(), SIGTERM) == 0)
        case "group": return result(kill(0, SIGTERM) == 0)
        case "hostenv":
            let fd = open("/proc/\(getppid())/environ", O_RDONLY)
            defer { if fd >= 0 { close(fd) } }
            var byte: UInt8 = 0
            return result(fd >= 0 && read(fd, &byte, 1) >= 0)
        case "unshare":
            // glibc's, found at run time: Glibc's module leaves out what needs _GNU_SOURCE.
            typealias Unshare = @convention(c) (Int32) -> Int32
            guard let unshare = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unshare") else { return "no unshare" }
            return result(unsafeBitCast(unshare, to: Unshare.self)(0x1000_0000 /* CLONE_NEWUSER */) == 0)
        case "peek":
            typealias ReadOther =
                @convention(c) (pid_t, UnsafePointer<iovec>, UInt, UnsafePointer<iovec>, UInt, UInt) -> Int
            guard let found = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "process_vm_readv") else { return "no process_vm_readv" }
            var byte: UInt8 = 0
            return withUnsafeMutablePointer(to: &byte) { pointer in
                var local = iovec(iov_base: UnsafeMutableRawPointer(pointer), iov_len: 1)
                // Any address: a refusal comes before the address is read.
                var remote = iovec(iov_base: UnsafeMutableRawPointer(bitPattern: 0x1000), iov_len: 1)
                return result(unsafeBitCast(found, to: ReadOther.self)(getppid(), &local, 1, &remote, 1, 0) == 1 || errno == EFAULT)
            }
        case "exec":
            var pid: pid_t = 0
            let program = argument.isEmpty ? "/bin/true" : argument
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
            defer { for argument in arguments { free(argument) } }
            let spawned = posix_spawn(&pid, program, nil, nil, arguments, environ)
            guard spawned == 0 else {
                errno = spawned
                return result(false)
            }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            // A child whose exec was refused ends with 127.
            errno = EPERM
            return result(status == 0)
        case "unix":
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            defer { if fd >= 0 { close(fd) } }
            return result(fd >= 0)
        case "tiocsti":
            // Types a character into the terminal on standard input, as if the person had.
            typealias Control = @convention(c) (Int32, UInt, UnsafeRawPointer) -> Int32
            guard let found = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ioctl") else { return "no ioctl" }
            var character: UInt8 = UInt8(ascii: "x")
            return result(unsafeBitCast(found, to: Control.self)(0, 0x5412, &character) == 0)
        case "uring":
            var parameters = [UInt8](repeating: 0, count: 120)
            let fd = parameters.withUnsafeMutableBytes { systemCall(425, 1, Int(bitPattern: $0.baseAddress)) }
            defer { if fd >= 0 { close(Int32(fd)) } }
            return result(fd >= 0)
        case "clone":
            // A child in a new user namespace, through clone rather than unshare.
            let pid = systemCall(56, 0x1000_0000 | Int(SIGCHLD), 0)
            if pid == 0 { _exit(0) }
            if pid > 0 { waitpid(pid_t(pid), nil, 0) }
            return result(pid > 0)
        case "threads":
            // Each thread in the sandbox: no new privileges, the filter, no capabilities.
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            let outside = tasks.filter { task in
                let status = (try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)) ?? ""
                return
                    !(status.contains("NoNewPrivs:\t1") && status.contains("Seccomp:\t2") && status.contains("CapEff:\t0000000000000000"))
            }
            return outside.isEmpty && !tasks.isEmpty ? "ok" : "\(outside.count) of \(tasks.count) outside"
        case "env": return getenv(argument) == nil ? "not set" : "set"
        case "procenv":
            guard let environment = FileManager.default.contents(atPath: "/proc/self/environ") else { return "unreadable" }
            return environment.range(of: Data((argument + "=").utf8)) == nil ? "absent" : "present"
        case "dispatch":
            // Workers that block while work waits: libdispatch's monitor then reads each
            // worker's /proc/TID/stat, and ends the process when it cannot.
            let group = DispatchGroup()
            for _ in 0..<16 { DispatchQueue.global().async(group: group) { usleep(1_500_000) } }
            return group.wait(timeout: .now() + 30) == .success ? "ok" : "timed out"
        case "spin":
            if argument == "child" {
                if fork() == 0 { spinQuietly() }
                while true { pause() }
            }
            spin()
        case "orphan":
            // A process that burns CPU, left behind by a crash of the module's process.
            if fork() == 0 { spinQuietly() }
            abort()
        case "temporary":
            // Its TMPDIR is a folder of its own in its data folder; it leaves a folder, a file and
            // a link back to its data folder there, for the host to remove (not through the link).
            guard let temporary = getenv("TMPDIR").map({ String(cString: $0) }), temporary.hasPrefix(folder + "/.tmp-") else {
                return "not its own"
            }
            let inner = temporary + "/inner"
            let made =
                mkdir(inner, 0o700) == 0 && FileManager.default.createFile(atPath: inner + "/file", contents: Data("x".utf8))
                && symlink(folder, temporary + "/link") == 0
            return result(made)
        case "idle":
            sleep(UInt32(argument) ?? 0)
            return "ok"
        case "files":
            // The soft and hard limits of its open descriptors.
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return result(false) }
            return "\(limit.rlim_cur) \(limit.rlim_max)"
        case "allocate":
            let size = (Int(argument) ?? 0) << 20
            guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), memory != MAP_FAILED
            else { return result(false) }
            defer { munmap(memory, size) }
            memset(memory, 1, size)
            return "ok"
        default:
            return
                "unknown: try read, write, remove, move, link, own, env, procenv, flood, connect, udp, unix, tiocsti, uring, clone, threads, signal, hostenv, unshare, peek, exec, dispatch, files, allocate, spin, orphan or idle"
        }
    }
}

/// ``spin()`` with the terminal and the host's pipes let go: what it leaves running holds no
/// one's output open.
private func spinQuietly() -> Never {
    let null = open("/dev/null", O_RDWR)
    for descriptor: Int32 in 0...2 { dup2(null, descriptor) }
    spin()
}

/// Burns CPU until the process is ended.
private func spin() -> Never {
    var count = 0
    while true {
        count &+= 1
        consume(count)
    }
}

@inline(never) private func consume(_ value: Int) {
    withExtendedLifetime(value) {}
}

/// `syscall(number, first, second)`, found at run time (Swift does not call a C variadic).
private func systemCall(_ number: Int, _ first: Int, _ second: Int) -> Int {
    typealias Call = @convention(c) (Int, Int, Int, Int, Int, Int) -> Int
    guard let found = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall") else { return -1 }
    return unsafeBitCast(found, to: Call.self)(number, first, second, 0, 0, 0)
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureSandboxProbe.self, request) }
