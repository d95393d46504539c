import Foundation

/// How a program run by a test ended, and what it wrote.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// The command line, for messages.
    public let command: [String]
    /// The exit status, or `nil` when a signal ended it.
    public let status: Int32?
    /// The signal that ended it, if one did.
    public let signal: Int32?
    public let stdout: String
    public let stderr: String

    public init(command: [String], status: Int32?, signal: Int32?, stdout: String, stderr: String) {
        self.command = command
        self.status = status
        self.signal = signal
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Exit status 0.
    public var succeeded: Bool { status == 0 }

    /// Standard output's lines, without the empty last one.
    public var outputLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty() }

    /// Standard error's lines, without the empty last one.
    public var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastEmpty() }

    /// Standard output decoded from JSON (what `--json` prints).
    ///
    /// - Throws: ``HostTestingError/notJSON(command:output:reason:)`` naming the command.
    public func decode<Value: Decodable>(_ type: Value.Type = Value.self) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(stdout.utf8))
        } catch {
            throw HostTestingError.notJSON(command: command, output: stdout, reason: "\(error)")
        }
    }

    public var description: String {
        let end = signal.map { "signal \($0)" } ?? "status \(status ?? -1)"
        return "'\(command.joined(separator: " "))' ended with \(end)\nstdout:\n\(stdout)stderr:\n\(stderr)"
    }
}

extension Array where Element == String {
    fileprivate func dropLastEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}
