/// A command a module contributes to the command line: `modhost <module> <name> ARGS…`.
///
/// ```swift
/// let city = CommandOption.required("--city NAME", strings[.cityOption])
/// ModuleCommand(name: "add", summary: strings[.addSummary], options: [city], example: "modhost geo add --city Lyon") {
///     let arguments = try CommandArguments($0.arguments, options: [city])
///     let name = try arguments.required(city)
///     …
/// }
/// ```
///
/// Each option is declared once: the usage line (`add --city NAME`), the help and the parser
/// (``CommandArguments/init(_:options:)``) all read the same ``CommandOption``.
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

    /// A command whose usage is made from its name, its `arguments` (words that are not
    /// options, such as `QUERY`) and its options in order, each in brackets unless it is
    /// required: `search QUERY [--page N] [--json]`.
    public init(
        name: String, summary: String, arguments: String? = nil, options: [CommandOption] = [], example: String? = nil,
        run: @escaping @MainActor @Sendable (CommandInvocation) throws -> Void
    ) {
        let words = [name] + (arguments.map { [$0] } ?? []) + options.map { $0.isRequired ? $0.usage : "[\($0.usage)]" }
        self.init(name: name, summary: summary, usage: words.joined(separator: " "), options: options, example: example, run: run)
    }
}

/// An option of a command: `--city NAME` (an option with a value) or `--yes` (a flag), what it
/// is, and whether the command needs it.
public struct CommandOption: Sendable, Equatable {
    /// As the usage and the help show it: the name, then the value's name if it takes one.
    public let usage: String
    public let summary: String
    /// The command needs it: ``CommandArguments/init(_:options:)`` refuses a line without it,
    /// and the usage shows it without brackets.
    public let isRequired: Bool

    /// An optional option (or flag).
    public init(_ usage: String, _ summary: String) {
        self.init(usage: usage, summary: summary, isRequired: false)
    }

    /// An option the command needs.
    public static func required(_ usage: String, _ summary: String) -> CommandOption {
        CommandOption(usage: usage, summary: summary, isRequired: true)
    }

    private init(usage: String, summary: String, isRequired: Bool) {
        self.usage = usage
        self.summary = summary
        self.isRequired = isRequired
    }

    /// What is typed: `--city` of `--city NAME`.
    public var name: String { String(usage.prefix { $0 != " " }) }

    /// The value's name (`NAME`), or `nil` for a flag.
    public var valueName: String? {
        let rest = usage.drop { $0 != " " }.drop { $0 == " " }
        return rest.isEmpty ? nil : String(rest)
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
