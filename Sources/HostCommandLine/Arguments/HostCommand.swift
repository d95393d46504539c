import FoundationEssentials
import Glibc
import HostLifecycle
import HostModel
import ModuleKit

/// A built-in command as the command line asked for it, ready to run: made by its
/// declaration (``Builtin/make``) from the words after its own and its options, and run by
/// one of the two handlers below. Each lives in one file of `Builtins/`, with its declaration.
protocol HostCommand: Sendable {
    /// The declaration that makes it.
    static var declaration: Builtin { get }
    /// The command as one that needs no modules, or `nil`. Given by the protocols below: the
    /// dispatcher asks this rather than casting, since a cast to a protocol searches every
    /// conformance of every loaded library the first time (a start pays for each one).
    var withoutModules: (any CommandWithoutModules)? { get }
    /// The command as one that runs against the modules, or `nil`.
    var inSession: (any CommandInSession)? { get }
}

extension HostCommand {
    var withoutModules: (any CommandWithoutModules)? { nil }
    var inSession: (any CommandInSession)? { nil }
}

/// A command that needs no modules: it runs before `modules.json` is read (`new`, `dev`,
/// `completion`, `manual`, a built-in command's help).
protocol CommandWithoutModules: HostCommand {
    /// Runs it; `nil` to go on and run it in a session (`help` for a module, or the host's).
    @MainActor func run(_ context: CommandContext) -> Int32?
}

/// A command that runs against the modules of `modules.json` (`modules`, `check`, the app…).
protocol CommandInSession: HostCommand {
    /// What this run of it needs beyond its declaration (`modules --json` hashes every
    /// library).
    func configure(_ options: inout RuntimeOptions)
    @MainActor func run(in session: HostSession) -> Int32
}

extension CommandInSession {
    func configure(_ options: inout RuntimeOptions) {}
    var inSession: (any CommandInSession)? { self }
}

extension CommandWithoutModules {
    var withoutModules: (any CommandWithoutModules)? { self }
}

/// What a command that needs no modules is run with.
struct CommandContext {
    let arguments: CommandLineArguments
    let environment: [String: String]
    let console: Console

    /// The host's strings in the person's language, read now (see `ModhostCommandLine.hostStrings`).
    func strings() -> ModuleStrings? { ModhostCommandLine.hostStrings(environment) }
}

/// A built-in command, declared once: what a person types, what it does (summary lines of at
/// most 54 characters, so that help fits 80 columns), its own options, whether it may write,
/// and how its words become the ``HostCommand`` that runs. `--help`, `help COMMAND`, the
/// parser, the dispatcher, the read-only rule, completion and the manual page read it; the
/// list of them is ``CommandLineTable/commands``.
struct Builtin: Sendable {
    typealias Make =
        @Sendable (_ rest: [String], _ options: CommandLineArguments.CommandOptions) throws(UsageError) -> any HostCommand

    /// What a run of the command may change in the data folder. Every declaration says it:
    /// a new command is not writable by default.
    enum Access: Sendable {
        /// It starts modules as a run does: their data, the crash records.
        case writesData
        /// It plans, reads, checks or writes elsewhere, and changes nothing in the data folder
        /// (no crash record is collected, forgotten or written).
        case readsOnly
    }

    /// Its key in the host's strings: `help.command.<id>` is its summary.
    let id: String
    /// The word that names it (`modules`); `nil` for the rows that are no word of their own
    /// (the app, a module's commands).
    var word: String? = nil
    let usage: String
    let summary: [String]
    /// Its own options, accepted only after its word (`modules --json`).
    var options: [CommandLineTable.Option] = []
    let access: Access
    /// Reads `modules.json` leniently: goes on with what can still be checked, to tell every
    /// problem at once (`check` and its child).
    var checksDespiteProblems = false
    /// Reads the descriptors of disabled modules too, so that its report shows them.
    var describesEveryModule = false
    /// Loads and starts the modules (`planOnly` does not): the processes of isolated modules
    /// are started as soon as the command line and modules.json say which.
    var startsModules = false
    /// Makes the command from the words after its own.
    let make: Make
    /// A whole command line that works, for its help.
    var example: String? = nil
    /// Not listed by `--help`: the internal commands of `check` and completion.
    var hidden = false
    /// The words its argument takes, for completion (`completion`: the shells).
    var arguments: [String] = []

    /// A command that takes no word after its own.
    static func noArgument(_ command: String, _ rest: [String]) throws(UsageError) {
        if let extra = rest.first {
            throw UsageError(
                key: "usage.no.argument", [command, extra],
                english: "'\(command)' takes no argument, found '\(extra)'; see 'modhost --help'")
        }
    }
}

/// Built-in commands, one file each in `Builtins/`.
enum Builtins {}
