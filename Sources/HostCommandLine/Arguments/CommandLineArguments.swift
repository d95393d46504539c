import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit

/// The `modhost` command line, parsed: global options, then a built-in command (its
/// declaration in `Builtins/`) or a module command whose arguments pass through untouched.
struct CommandLineArguments {
    /// What to run, as its declaration made it from the words and options.
    var command: any HostCommand = Builtins.App()
    /// The declaration of ``command``: what it may write, how it reads modules.json.
    var declaration: Builtin { type(of: command).declaration }
    var configPath: String?
    var dataFolder: String?
    var only: [String]?
    var enable: [String] = []
    var disable: [String] = []
    /// Modules run in a process of their own for this run (`--isolate`).
    var isolate: [String] = []
    /// Isolated modules whose sandbox only notes what they use (`--sandbox-audit`).
    var sandboxAudit: [String] = []
    var logLevel: LogLevel = .warn
    var retry: [String] = []
    /// Libraries given with `--module PATH`, loaded for this run beside modules.json's.
    var extraModules: [String] = []
    var recordsCrashes = true
    /// `--plain`: the app in the line mode even on a terminal.
    var plain = false
    var help = false
    var version = false
    /// What a built-in command's own options set (`modules --json`, `new --output …`), while the
    /// line is parsed; the command carries them after.
    var commandOptions = CommandOptions()

    /// What the options of the built-in commands set, while the line is parsed (each option is
    /// declared with its command).
    struct CommandOptions: Equatable {
        var json = false
        var keep: [String] = []
        var timing = false
        var format: GraphFormat?
        var output: String?
        var kit: String?
        var route = false
    }

    /// What `check`'s child process is called with (see ``Builtins/Probe``).
    static var probeCommand: String { Builtins.Probe.declaration.word ?? "__probe" }

    /// Parses `arguments` (without the program name).
    ///
    /// - Throws: ``UsageError`` for an unknown option, a missing or bad value, an unknown
    ///   built-in command option, or words a built-in command does not take.
    static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
        var parsed = CommandLineArguments()
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            // After `modhost <module> <command>`, everything belongs to the module.
            if case .some(let first) = words.first, CommandLineTable.command(named: first) == nil, words.count >= 2 {
                words.append(argument)
                continue
            }
            if argument == "--" {
                words += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                words.append(argument)
                continue
            }
            let (name, inlineValue) = split(argument)
            guard let option = CommandLineTable.option(named: name, command: words.first) else {
                throw nearest(to: name, among: CommandLineTable.optionNames(command: words.first)).map {
                    UsageError(
                        key: "usage.host.option.unknown.suggest", [name, $0],
                        english: "unknown option '\(name)'; did you mean '\($0)'? See 'modhost --help'")
                } ?? UsageError(key: "usage.host.option.unknown", [name], english: "unknown option '\(name)'; see 'modhost --help'")
            }
            var value = ""
            if option.value != nil {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(key: "usage.host.option.value", [name], english: "option '\(name)' needs a value")
                    }
                    value = arguments[index]
                    index += 1
                }
            }
            try option.apply(&parsed, value, name)
        }
        // `modhost new --help` is help, whatever `new` would need; `modhost geo --help` is
        // Geo's help, `modhost --help` the host's.
        if parsed.help, CommandLineTable.command(named: words.first ?? "").map({ !$0.hidden }) ?? true {
            parsed.command = Builtins.Help(topic: words.first)
            return parsed
        }
        parsed.command = try command(from: words, options: parsed.commandOptions)
        return parsed
    }

    /// A `--log-level` value.
    static func logLevel(_ name: String) throws(UsageError) -> LogLevel {
        guard let level = LogLevel(rawValue: name) else {
            let levels = LogLevel.allCases.map(\.rawValue)
            throw UsageError(
                HostText(
                    "usage.log.level", "unknown log level '%@'; use one of %@%@",
                    [.plain(name), .plain(levels.joined(separator: ", ")), .text(suggestion(for: name, among: levels))]))
        }
        return level
    }

    /// The command `words` name, with the options given for it: a built-in command as its
    /// declaration makes it, else a module's.
    private static func command(from words: [String], options: CommandOptions) throws(UsageError) -> any HostCommand {
        guard let first = words.first else { return Builtins.App() }
        if let builtin = CommandLineTable.command(named: first) {
            return try builtin.make(Array(words.dropFirst()), options)
        }
        return try Builtins.OfModule.declaration.make(words, options)
    }

    /// The global options a child `modhost` needs to see the same modules (what `dev`, `check`
    /// and `bisect` pass on), as the option table says each is passed; without those whose ids
    /// are `omitting` (`bisect` chooses the modules of each try itself).
    func childOptions(omitting omitted: Set<String> = []) -> [String] {
        CommandLineTable.options.filter { !omitted.contains($0.id) }.flatMap { $0.childWords(self) }
    }

    /// `--name=value` → ("--name", "value"); `--name` → ("--name", nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func nonEmpty(_ value: String, for option: String) throws(UsageError) -> String {
        guard !value.isEmpty else {
            throw UsageError(key: "usage.option.empty", [option], english: "option '\(option)' needs a non-empty value")
        }
        return value
    }

    static func names(_ value: String, for option: String) throws(UsageError) -> [String] {
        let names = value.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmedOfSpaces()
        }
        guard !names.isEmpty, !names.contains("") else {
            throw UsageError(
                key: "usage.option.names", [option, value],
                english: "option '\(option)' needs module names separated by commas, found '\(value)'")
        }
        return names
    }
}
