import Foundation
import ModuleHostTesting

/// A finished child process: exit code and everything it wrote.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal number when `signaled` is true.
    public let status: Int32
    /// Whether a signal ended the process (`status` is then the signal).
    public var signaled = false
    public let stdout: String
    public let stderr: String
    /// Standard error split into lines, without the empty last one.
    public var errorLines: [String] { stderr.split(separator: "\n").map(String.init) }

    init(_ result: CommandResult) {
        status = result.signal ?? result.status ?? 0
        signaled = result.signal != nil
        stdout = result.stdout
        stderr = result.stderr
    }
}

/// Runs programs as a person would from a shell, on ModuleHostTesting's runner (its time
/// limits, its clean descriptors and signals), in an environment of their own: no real data
/// folder, no `modules.json` from the test's environment, English.
///
/// For what a world of ModuleHostTesting does not fit: programs that are not `modhost` (`swift`,
/// `tmux`, `setpriv`), and the host run on hand-made `modules.json` files and data folders a
/// test breaks on purpose.
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
        process.program.write(bytes: inputBytes ?? Array(input.utf8))
        process.program.closeInput()
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
        let merged = Self.environment(environment, unsetting: unset)
        return RunningProcess(try RunningProgram([executable] + arguments, environment: merged, directory: currentDirectory))
    }

    /// The test process's environment, made safe for a child: no `modules.json` from it, a
    /// fresh data folder (tests never touch the real one), English; then `environment` over it
    /// and `unset` taken out.
    static func environment(_ environment: [String: String], unsetting unset: Set<String>) -> [String: String] {
        var merged = ProcessInfo.processInfo.environment
        merged["MODHOST_CONFIG"] = nil
        merged["MODHOST_DATA_DIR"] = NSTemporaryDirectory() + "modhost-data-" + UUID().uuidString
        merged["LANG"] = "C.UTF-8"
        merged["LC_ALL"] = nil
        merged["LC_MESSAGES"] = nil
        for (key, value) in environment { merged[key] = value }
        for key in unset { merged[key] = nil }
        return merged
    }
}

/// A child process still running; its output is collected as it arrives.
public final class RunningProcess: Sendable {
    let program: RunningProgram

    init(_ program: RunningProgram) { self.program = program }

    public var processIdentifier: Int32 { program.processIdentifier }

    /// Writes `text` to its standard input.
    public func write(_ text: String) { program.write(text) }

    /// Closes its standard input.
    public func closeInput() { program.closeInput() }

    /// Waits until standard output contains `text`, or throws after `deadline` seconds.
    public func waitForOutput(containing text: String, deadline: TimeInterval = 120) throws {
        try program.waitForOutput(containing: text, timeout: .milliseconds(Int64(deadline * 1000)))
    }

    /// What it wrote to standard output so far.
    public var stdout: String { program.stdout }

    /// What it wrote to standard error so far.
    public var stderr: String { program.stderr }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) { program.send(signal) }

    /// Waits until the process exits, or kills it after `deadline` seconds and throws.
    public func wait(deadline: TimeInterval = 120) throws -> ProcessResult {
        ProcessResult(try program.wait(timeout: .milliseconds(Int64(deadline * 1000))))
    }
}

/// Programs on a real pseudo-terminal (ModuleHostTesting's), in the same environment as
/// ``ChildProcess``: a shell line typed at a terminal, for the tests of what a person sees.
public enum TerminalProcess {
    /// Starts `/bin/sh -c command` on a new terminal of `rows` by `columns`; the app in the
    /// line mode unless `environment` says otherwise (`MODHOST_UI`).
    public static func start(
        _ command: String, environment: [String: String] = [:], unsetting unset: Set<String> = [], rows: Int = 24, columns: Int = 80
    ) throws -> TerminalSession {
        let merged = ChildProcess.environment(["TERM": "xterm", "MODHOST_UI": "plain"].merging(environment) { $1 }, unsetting: unset)
        return try TerminalSession(["/bin/sh", "-c", command], environment: merged, rows: rows, columns: columns)
    }

    /// Runs `command` on a terminal to its end; the result's output is everything it wrote
    /// there (the terminal's `\r\n` and all).
    public static func run(
        _ command: String, environment: [String: String] = [:], unsetting unset: Set<String> = [], deadline: TimeInterval = 120
    ) throws -> ProcessResult {
        let session = try start(command, environment: environment, unsetting: unset)
        return ProcessResult(try session.waitForExit(timeout: .milliseconds(Int64(deadline * 1000))))
    }
}
