import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["MODHOST_CONFIG"] = nil
        // Tests never touch the real data folder: each process gets a fresh one unless told.
        merged["MODHOST_DATA_DIR"] = NSTemporaryDirectory() + "modhost-data-" + UUID().uuidString
        merged["LANG"] = "C.UTF-8"
        merged["LC_ALL"] = nil
        merged["LC_MESSAGES"] = nil
        for (key, value) in environment { merged[key] = value }
        for key in unset { merged[key] = nil }
        process.environment = merged
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        let running = RunningProcess(process: process)
        try process.run()
        running.startReading()
        return running
    }
}

/// A child process still running; its output is collected as it arrives.
public final class RunningProcess: @unchecked Sendable {
    // Output buffers are only touched under `lock`.
    let process: Process
    public let stdin = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let readers = DispatchGroup()

    init(process: Process) {
        self.process = process
        process.standardInput = stdin
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
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

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits until standard output contains `text`, or throws after `deadline` seconds.
    public func waitForOutput(containing text: String, deadline: TimeInterval = 120) throws {
        let limit = Date().addingTimeInterval(deadline)
        while true {
            lock.lock()
            let seen = String(decoding: out, as: UTF8.self)
            lock.unlock()
            if seen.contains(text) { return }
            if Date() > limit || !process.isRunning {
                throw ChildProcessTimeout(seconds: deadline)
            }
            usleep(10_000)
        }
    }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits until the process exits, or kills it after `deadline` seconds and throws.
    public func wait(deadline: TimeInterval = 120) throws -> ProcessResult {
        let limit = Date().addingTimeInterval(deadline)
        while process.isRunning {
            if Date() > limit {
                process.terminate()
                throw ChildProcessTimeout(seconds: deadline)
            }
            usleep(10_000)
        }
        readers.wait()
        lock.lock()
        defer { lock.unlock() }
        return ProcessResult(
            status: process.terminationStatus,
            signaled: process.terminationReason == .uncaughtSignal,
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
