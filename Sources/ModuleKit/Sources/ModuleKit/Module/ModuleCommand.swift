/// A command a module contributes to the command line: `modhost <module> <name> ARGS…`.
///
/// ```swift
/// ModuleCommand(name: "whoami", summary: "Show who is logged in", usage: "whoami") { invocation in
///     context.ui.print(try auth.currentUserName())
/// }
/// ```
///
/// A command that returns succeeded (exit 0). One that throws a ``ModuleError`` ends with its
/// message, in the module's strings, and its exit code (``CommandUsageError``: 2, with the
/// usage); any other error is printed as it describes itself and ends with 1.
public struct ModuleCommand: Sendable {
    /// The word after the module's name on the command line.
    public let name: String
    /// One line for `modhost --help`.
    public let summary: String
    /// The arguments after the command's name, as shown in usage errors.
    public let usage: String
    /// Runs the command; the exit status comes from what it throws (see above).
    /// Runs on the main actor, where the app's terminal is.
    public let run: @MainActor @Sendable (CommandInvocation) throws -> Void

    public init(name: String, summary: String, usage: String, run: @escaping @MainActor @Sendable (CommandInvocation) throws -> Void) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.run = run
    }
}

/// What a command receives: its arguments (after the command's name).
public struct CommandInvocation: Sendable {
    public let arguments: [String]

    public init(arguments: [String]) {
        self.arguments = arguments
    }
}

/// A bad use of a module command; the host prints it with the command's usage and exits 2.
public struct CommandUsageError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
