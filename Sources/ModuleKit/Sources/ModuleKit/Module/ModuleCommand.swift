/// A command a module contributes to the command line: `modhost <module> <name> ARGS…`.
///
/// ```swift
/// ModuleCommand(
///     name: "add", summary: strings[.addSummary], usage: "add --city NAME",
///     options: [CommandOption("--city NAME", strings[.cityOption])], example: "modhost geo add --city Lyon"
/// ) { invocation in … }
/// ```
///
/// `modhost <module> <command> --help` prints the usage, the summary, the options and the
/// example; the summary and the options' texts are in the person's language.
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
    /// Each option and what it does, for the command's help.
    public let options: [CommandOption]
    /// A whole command line that works, for the command's help.
    public let example: String?
    /// Runs the command; the exit status comes from what it throws (see above).
    /// Runs on the main actor, where the app's terminal is.
    public let run: @MainActor @Sendable (CommandInvocation) throws -> Void

    public init(
        name: String, summary: String, usage: String, options: [CommandOption] = [], example: String? = nil,
        run: @escaping @MainActor @Sendable (CommandInvocation) throws -> Void
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.options = options
        self.example = example
        self.run = run
    }
}

/// An option of a command as its help shows it: `--city NAME` and what it is.
public struct CommandOption: Sendable, Equatable {
    public let usage: String
    public let summary: String

    public init(_ usage: String, _ summary: String) {
        self.usage = usage
        self.summary = summary
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
    /// The message as the module wrote it (``CommandArguments`` writes English, and also a
    /// ``key`` the host translates).
    public let message: String
    /// For the kit's own messages: a key in the host's strings, and its arguments, so the host
    /// prints the message in the person's language.
    public let key: String?
    public let arguments: [String]

    public init(_ message: String) {
        self.message = message
        key = nil
        arguments = []
    }

    init(key: String, _ arguments: [String], english: String) {
        message = english
        self.key = key
        self.arguments = arguments
    }

    public var description: String { message }
}
