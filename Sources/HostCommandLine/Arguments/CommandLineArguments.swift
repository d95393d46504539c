import Foundation
import HostModel
import ModuleKit

/// The `modhost` command line, parsed: global options, then a built-in command or a module
/// command whose arguments pass through untouched.
struct CommandLineArguments: Equatable {
    enum Command: Equatable {
        /// No command: start the modules and run until end of input or a signal.
        case run
        case modules(json: Bool, timing: Bool = false)
        case check(json: Bool = false)
        case routes
        /// `modhost bisect [--keep NAME] -- ARGS…`: the modules with which `ARGS` fails.
        case bisect(arguments: [String], keep: [String])
        /// `modhost new NAME [--output DIR] [--kit DIR] [--route]`: writes a new module package.
        case new(name: String, output: String?, kit: String?, route: Bool)
        /// `modhost dev PATH [-- ARGS…]`: rebuilds a module package on change and runs ARGS.
        case dev(package: String, arguments: [String])
        /// `modhost help [COMMAND]`, and `modhost COMMAND --help` for a built-in command: the
        /// host's help, or one command's (`nil`: the host's).
        case help(topic: String?)
        /// `modhost graph [--format text|dot|svg]`: the modules and their route edges.
        case graph(format: String)
        /// `modhost completion SHELL`: a completion script for bash, zsh or fish.
        case completion(shell: String)
        /// `modhost manual`: the manual page, in roff.
        case manual
        /// Internal: the names of modules.json's modules (`words`: as commands), for completion.
        case listModules(words: Bool)
        /// `__commands WORD [COMMAND]`: the commands module WORD's manifest declares, or that
        /// command's options, for completion (no library opened).
        case listCommands(module: String, command: String?)
        /// Internal: load these modules in this process and report each (what `check` runs in
        /// a child process, so a library's code cannot crash, stop or hang `check`).
        case probe(names: [String])
        /// `modhost <module> <command> ARGS…`; `command` is nil when only the module is named.
        case module(name: String, command: String?, arguments: [String])
    }

    var command: Command = .run
    var configPath: String?
    var dataFolder: String?
    var only: [String]?
    var enable: [String] = []
    var disable: [String] = []
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

    struct CommandOptions: Equatable {
        var json = false
        var keep: [String] = []
        var timing = false
        var format: String?
        var output: String?
        var kit: String?
        var route = false
    }

    /// What `check`'s child process is called with (see ``Command/probe(names:)``).
    static var probeCommand: String { CommandLineTable.command(named: "__probe")?.word ?? "__probe" }

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
        // `modhost new --help` is help, whatever `new` would need.
        if parsed.help, let first = words.first, let builtin = CommandLineTable.command(named: first), !builtin.hidden {
            parsed.command = .help(topic: builtin.word)
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
    private static func command(from words: [String], options: CommandOptions) throws(UsageError) -> Command {
        guard let first = words.first else { return .run }
        let rest = Array(words.dropFirst())
        if let make = CommandLineTable.command(named: first)?.make {
            return try make(rest, options)
        }
        return .module(name: first, command: rest.first, arguments: Array(rest.dropFirst()))
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
            String($0).trimmingCharacters(in: .whitespaces)
        }
        guard !names.isEmpty, !names.contains("") else {
            throw UsageError(
                key: "usage.option.names", [option, value],
                english: "option '\(option)' needs module names separated by commas, found '\(value)'")
        }
        return names
    }
}
