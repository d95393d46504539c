import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A finished child process: exit code and everything it wrote.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signal` is true.
    public let status: Int32
    /// Whether a signal ended the process (`status` is then the signal).
    public var signaled = false
    public let stdout: String
    public let stderr: String
    /// Standard error split into lines, without the empty last one.
    public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }
}

/// Runs programs as a person would from a shell, with a deadline so a hang fails the test
/// instead of blocking the run.
public enum ChildProcess {
    /// Runs `executable` with `arguments`, feeding `input` on standard input, then closing it.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: String = "",
        inputBytes: [UInt8]? = nil,
        environment: [String: String] = [:],
        unsetting unset: Set<String> = [],
        currentDirectory: String? = nil,
        deadline: TimeInterval = 120
    ) throws -> ProcessResult {
        let process = try start(executable, arguments, environment: environment, unsetting: unset, currentDirectory: currentDirectory)
        process.stdin.fileHandleForWriting.write(inputBytes.map { Data($0) } ?? Data(input.utf8))
        try process.stdin.fileHandleForWriting.close()
        return try process.wait(deadline: deadline)
    }

    /// Starts `executable` and leaves standard input open, for tests that signal it.
    public static func start(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        unsetting unset: Set<String> = [],
        currentDirectory: String? = nil
    ) throws -> RunningProcess {
        var merged = ProcessInfo.processInfo.environment
        merged["MODHOST_CONFIG"] = nil
        // Tests never touch the real data folder: each process gets a fresh one unless told.
        merged["MODHOST_DATA_DIR"] = NSTemporaryDirectory() + "modhost-data-" + UUID().uuidString
        merged["LANG"] = "C.UTF-8"
        merged["LC_ALL"] = nil
        merged["LC_MESSAGES"] = nil
        for (key, value) in environment { merged[key] = value }
        for key in unset { merged[key] = nil }
        let running = RunningProcess()
        try running.spawn(executable, arguments, environment: merged, currentDirectory: currentDirectory)
        running.startReading()
        return running
    }
}

/// A child process still running; its output is collected as it arrives.
///
/// Started with posix_spawn rather than Foundation's Process: on this toolchain Process.run()
/// crashes now and then while it lists /proc/self/fd (swift-corelibs-foundation #5472),
/// which took the whole test run down with it.
public final class RunningProcess: @unchecked Sendable {
    // Output buffers are only touched under `lock`; `pid` is set once, before any reader runs.
    public let stdin = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()
    private var pid: pid_t = 0
    /// The wait status once the process was reaped.
    private let reaped = Mutex<Int32?>(nil)

    func spawn(_ executable: String, _ arguments: [String], environment: [String: String], currentDirectory: String?) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin.fileHandleForReading.fileDescriptor, 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe.fileHandleForWriting.fileDescriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe.fileHandleForWriting.fileDescriptor, 2)
        // No other descriptor of this (busy, multi-threaded) test process leaks into the child:
        // another test's pipe held open here would never reach end of file.
        guard let closeFrom = Self.closeFrom, let changeDirectory = Self.changeDirectory else {
            throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "glibc 2.34 or later is needed to spawn children"])
        }
        _ = closeFrom(&actions, 3)
        if let currentDirectory { _ = changeDirectory(&actions, currentDirectory) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // The child starts with default signal handling and nothing blocked, however this
        // test process was started: an ignored SIGINT would be passed on, and modhost keeps
        // an ignored SIGINT ignored.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends are the child's: closed here, so its exit ends the readers.
        try stdin.fileHandleForReading.close()
        try stdoutPipe.fileHandleForWriting.close()
        try stderrPipe.fileHandleForWriting.close()
        guard result == 0 else {
            throw CocoaError(
                .fileReadNoPermission,
                userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(executable): \(String(cString: strerror(result)))"])
        }
    }

    // glibc's GNU extensions (2.29, 2.34), which Swift's Glibc module does not declare.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let closeFrom = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: CloseFrom.self)
    }
    private static let changeDirectory = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np").map {
        unsafeBitCast($0, to: ChangeDirectory.self)
    }

    func startReading() {
        for (pipe, isError) in [(stdoutPipe, false), (stderrPipe, true)] {
            readers.enter()
            DispatchQueue.global().async {
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    self.lock.lock()
                    if isError { self.err.append(chunk) } else { self.out.append(chunk) }
                    self.lock.unlock()
                }
                self.readers.leave()
            }
        }
    }

    public var processIdentifier: Int32 { pid }

    /// Whether the process still runs (reaping it when it has ended).
    private var isRunning: Bool {
        reaped.withLock { status in
            guard status == nil else { return false }
            var value: Int32 = 0
            if waitpid(pid, &value, WNOHANG) == pid { status = value }
            return status == nil
        }
    }

    /// Waits until standard output contains `text`, or throws after `deadline` seconds.
    public func waitForOutput(containing text: String, deadline: TimeInterval = 120) throws {
        let limit = Date().addingTimeInterval(deadline)
        while true {
            lock.lock()
            let seen = String(decoding: out, as: UTF8.self)
            lock.unlock()
            if seen.contains(text) { return }
            if Date() > limit || !isRunning {
                throw ChildProcessTimeout(seconds: deadline)
            }
            usleep(10_000)
        }
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits until the process exits, or kills it after `deadline` seconds and throws.
    public func wait(deadline: TimeInterval = 120) throws -> ProcessResult {
        let limit = Date().addingTimeInterval(deadline)
        while isRunning {
            if Date() > limit {
                kill(pid, SIGTERM)
                throw ChildProcessTimeout(seconds: deadline)
            }
            usleep(10_000)
        }
        readers.wait()
        let status = reaped.withLock { $0 } ?? 0
        // The wait status, decoded as WIFSIGNALED, WTERMSIG and WEXITSTATUS do.
        let signal = status & 0x7f
        lock.lock()
        defer { lock.unlock() }
        return ProcessResult(
            status: signal != 0 ? signal : (status >> 8) & 0xff,
            signaled: signal != 0,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self)
        )
    }
}

/// A child process did not finish in time.
public struct ChildProcessTimeout: Error, CustomStringConvertible {
    public let seconds: TimeInterval
    public var description: String { "the child process did not finish within \(Int(seconds)) s" }
}
