import HostModel
import ModuleKit

/// The built-in commands and the options of `modhost`, each declared once, with its id (the
/// key of its summary in the host's strings, `help.command.<id>` / `help.option.<id>`): `--help`
/// renders them, the parser reads what each option sets from here, a child `modhost` is given
/// the options that choose its modules from here, and a test holds the usage block of
/// docs/USING.md to them.
enum CommandLineTable {
    /// A command: what a person types, what it does (lines of at most 54 characters, so that
    /// help fits 80 columns), and how its words become a ``CommandLineArguments/Command``.
    /// Adding a built-in command means: a declaration here (and its case), its handler in
    /// `HostSession.run` (or `ModhostCommandLine.main`, for one that starts no modules), and its
    /// strings.
    struct Builtin: Sendable {
        typealias Make =
            @Sendable (_ rest: [String], _ options: CommandLineArguments.CommandOptions) throws(UsageError) ->
            CommandLineArguments.Command

        let id: String
        /// The word that names it (`modules`); `nil` for the rows that are no word of their own
        /// (the app, a module's commands).
        var word: String? = nil
        let usage: String
        let summary: [String]
        /// Makes the command from the words after its own.
        var make: Make? = nil
        /// A whole command line that works, for its help.
        var example: String? = nil
        /// Not listed by `--help`: the internal child command of `check`.
        var hidden = false
        /// The words its argument takes, for completion (`completion`: the shells).
        var arguments: [String] = []
    }

    static let commands: [Builtin] = [
        Builtin(id: "run", usage: "(none)", summary: ["Start the modules and run the interactive app"], example: "modhost"),
        Builtin(
            id: "modules", word: "modules", usage: "modules [--json]",
            summary: ["List each module with its state, reason and routes", "(--timing: what each cost the start)"],
            make: { rest, options throws(UsageError) in
                try noArgument("modules", rest)
                return .modules(json: options.json, timing: options.timing)
            }, example: "modhost --disable Photos modules --json"),
        Builtin(
            id: "check", word: "check", usage: "check [--json]",
            summary: ["Validate modules.json and every enabled library", "(loaded in a child process); start nothing"],
            make: { rest, options throws(UsageError) in
                try noArgument("check", rest)
                return .check(json: options.json)
            }, example: "modhost --config /etc/modhost/modules.json check"),
        Builtin(
            id: "routes", word: "routes", usage: "routes", summary: ["List each route, its provider and consumers"],
            make: { rest, _ throws(UsageError) in
                try noArgument("routes", rest)
                return .routes
            }, example: "modhost routes"),
        Builtin(
            id: "graph", word: "graph", usage: "graph [--format F]",
            summary: ["Draw the modules and their routes: a text tree,", "or --format dot or svg (Graphviz)"],
            make: { rest, options throws(UsageError) in
                try noArgument("graph", rest)
                let format = options.format ?? "text"
                guard RouteGraph.formats.contains(format) else {
                    throw UsageError(
                        key: "usage.graph.format", [format], english: "'graph --format' takes text, dot or svg, found '\(format)'")
                }
                return .graph(format: format)
            }, example: "modhost graph --format svg > modules.svg"),
        Builtin(
            id: "bisect", word: "bisect", usage: "bisect -- ARGS...",
            summary: ["Find the modules that make 'modhost ARGS' fail", "(--keep NAME: keep a module in every try)"],
            make: { rest, options throws(UsageError) in
                guard !rest.isEmpty else {
                    throw UsageError(key: "usage.bisect", english: "'bisect' needs the command to try: modhost bisect -- ARGS…")
                }
                return .bisect(arguments: rest, keep: options.keep)
            }, example: "modhost bisect --keep Settings -- geo list"),
        Builtin(
            id: "new", word: "new", usage: "new NAME",
            summary: ["Write a module package built against this host's kit", "(into ./NAME, or --output DIR; --kit DIR; --route)"],
            make: { rest, options throws(UsageError) in
                guard let name = rest.first else {
                    throw UsageError(key: "usage.new", english: "'new' needs the module's name: modhost new NAME [--output DIR]")
                }
                if let extra = rest.dropFirst().first {
                    throw UsageError(
                        key: "usage.new.extra", [extra], english: "'new' takes one name, found '\(extra)' too; see 'modhost --help'")
                }
                return .new(name: name, output: options.output, kit: options.kit, route: options.route)
            }, example: "modhost new Notes --output ~/src/Notes"),
        Builtin(
            id: "dev", word: "dev", usage: "dev PATH [-- ARGS...]",
            summary: ["Rebuild the module package at PATH on every change", "and run 'modhost ARGS' (or the app) with it"],
            make: { rest, _ throws(UsageError) in
                guard let package = rest.first else {
                    throw UsageError(key: "usage.dev", english: "'dev' needs the module package's folder: modhost dev PATH [-- ARGS…]")
                }
                return .dev(package: package, arguments: Array(rest.dropFirst()))
            }, example: "modhost dev ~/src/Notes -- notes hello"),
        Builtin(
            id: "help", word: "help", usage: "help [COMMAND]", summary: ["Show this help, or a command's"],
            make: { rest, _ throws(UsageError) in
                if let extra = rest.dropFirst().first {
                    throw UsageError(
                        key: "usage.help.extra", [extra], english: "'help' takes one command, found '\(extra)' too; see 'modhost --help'")
                }
                return .help(topic: rest.first)
            }, example: "modhost help bisect"),
        Builtin(
            id: "completion", word: "completion", usage: "completion SHELL", summary: ["Print a completion script for bash, zsh or fish"],
            make: { rest, _ throws(UsageError) in
                guard let shell = rest.first, ShellCompletion.shells.contains(shell), rest.count == 1 else {
                    throw UsageError(
                        key: "usage.completion", [rest.first ?? ""],
                        english: "'completion' needs a shell, bash, zsh or fish, found '\(rest.first ?? "")'; see 'modhost help completion'"
                    )
                }
                return .completion(shell: shell)
            }, example: "source <(modhost completion bash)", arguments: ShellCompletion.shells),
        Builtin(
            id: "manual", word: "manual", usage: "manual", summary: ["Print the manual page (roff), to install as modhost.1"],
            make: { rest, _ throws(UsageError) in
                try noArgument("manual", rest)
                return .manual
            }, example: "modhost manual > ~/.local/share/man/man1/modhost.1"),
        Builtin(id: "module.command", usage: "<module> <command> ...", summary: ["Run a command an active module contributes"]),
        Builtin(id: "module.help", usage: "<module> --help", summary: ["List a module's commands"]),
        Builtin(
            id: "modules.names", word: "__modules", usage: "__modules [words]", summary: [],
            make: { rest, _ in .listModules(words: rest.first == "words") }, hidden: true),
        Builtin(
            id: "modules.commands", word: "__commands", usage: "__commands MODULE [COMMAND]", summary: [],
            make: { rest, _ in .listCommands(module: rest.first ?? "", command: rest.dropFirst().first) }, hidden: true),
        Builtin(
            id: "probe", word: "__probe", usage: "__probe NAME...", summary: [], make: { rest, _ in .probe(names: rest) }, hidden: true),
    ]

    /// The built-in command named `word`, if there is one.
    static func command(named word: String) -> Builtin? {
        commands.first { $0.word == word }
    }

    /// The word of every built-in command, for suggestions.
    static var commandWords: [String] { commands.filter { !$0.hidden }.compactMap(\.word) }

    /// A command that takes no word after its own.
    private static func noArgument(_ command: String, _ rest: [String]) throws(UsageError) {
        if let extra = rest.first {
            throw UsageError(
                key: "usage.no.argument", [command, extra],
                english: "'\(command)' takes no argument, found '\(extra)'; see 'modhost --help'")
        }
    }

    /// An option: its spellings, the value it takes (if any), what it does, the command it
    /// belongs to (`nil`: every command), what it sets, and how a child is given the same.
    struct Option: Sendable {
        typealias Apply = @Sendable (_ parsed: inout CommandLineArguments, _ value: String, _ name: String) throws(UsageError) -> Void

        let id: String
        let names: [String]
        let value: String?
        let summary: [String]
        /// The built-in command it belongs to; `nil` for a global option.
        var command: String? = nil
        /// Sets what it says in `parsed`; `value` is empty for an option that takes none.
        let apply: Apply
        /// The values that give a child `modhost` the same setting, each passed as
        /// `--name VALUE` (`[]`: a child does not need it).
        var pass: @Sendable (CommandLineArguments) -> [String] = { _ in [] }
        /// The values it takes, when they are a few words (`--format`: text, dot, svg), for
        /// completion.
        var values: [String] = []

        var usage: String { names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") }

        /// The option as a child's command line gives it: its long name, and `value` when it
        /// takes one.
        func words(_ value: String? = nil) -> [String] {
            [names.last ?? id] + (self.value == nil ? [] : [value ?? ""])
        }

        /// What gives a child `modhost` the setting `parsed` has.
        func childWords(_ parsed: CommandLineArguments) -> [String] {
            pass(parsed).flatMap { words($0) }
        }
    }

    // MARK: Global options, each once

    static let config = Option(
        id: "config", names: ["--config"], value: "PATH",
        summary: ["The modules.json to read (default ./modules.json;", "env MODHOST_CONFIG)"],
        apply: { parsed, value, name throws(UsageError) in parsed.configPath = try CommandLineArguments.nonEmpty(value, for: name) },
        pass: { $0.configPath.map { [ExtraModules.absolute($0)] } ?? [] })
    static let dataFolder = Option(
        id: "data.dir", names: ["--data-dir"], value: "PATH",
        summary: [
            "Where modules keep their data (env MODHOST_DATA_DIR;", "default $XDG_DATA_HOME/modhost or", "~/.local/share/modhost)",
        ],
        apply: { parsed, value, name throws(UsageError) in parsed.dataFolder = try CommandLineArguments.nonEmpty(value, for: name) },
        pass: { $0.dataFolder.map { [$0] } ?? [] })
    static let only = Option(
        id: "only", names: ["--only"], value: "NAME[,NAME...]", summary: ["Load just these modules plus the modules they require"],
        apply: { parsed, value, name throws(UsageError) in
            parsed.only = (parsed.only ?? []) + (try CommandLineArguments.names(value, for: name))
        },
        pass: { $0.only.map { [$0.joined(separator: ",")] } ?? [] })
    static let enable = Option(
        id: "enable", names: ["--enable"], value: "NAME", summary: ["Enable a module for this run (repeatable, or A,B)"],
        apply: { parsed, value, name throws(UsageError) in parsed.enable += try CommandLineArguments.names(value, for: name) },
        pass: { $0.enable.isEmpty ? [] : [$0.enable.joined(separator: ",")] })
    static let disable = Option(
        id: "disable", names: ["--disable"], value: "NAME", summary: ["Disable a module for this run (repeatable, or A,B)"],
        apply: { parsed, value, name throws(UsageError) in parsed.disable += try CommandLineArguments.names(value, for: name) },
        pass: { $0.disable.isEmpty ? [] : [$0.disable.joined(separator: ",")] })
    static let module = Option(
        id: "module", names: ["--module"], value: "PATH", summary: ["Also load this lib<Name>.so for this run (repeatable)"],
        apply: { parsed, value, name throws(UsageError) in
            parsed.extraModules.append(try CommandLineArguments.nonEmpty(value, for: name))
        },
        pass: { $0.extraModules.map(ExtraModules.absolute) })
    static let retry = Option(
        id: "retry", names: ["--retry"], value: "NAME|all", summary: ["Try again a module that crashed, exited or hung"],
        apply: { parsed, value, name throws(UsageError) in parsed.retry += try CommandLineArguments.names(value, for: name) })
    static let noCrashRecords = Option(
        id: "no.crash.records", names: ["--no-crash-records"], value: nil,
        summary: ["Neither skip recorded crashes nor record new ones"],
        apply: { parsed, _, _ in parsed.recordsCrashes = false })
    static let plain = Option(
        id: "plain", names: ["--plain"], value: nil, summary: ["Run the app line by line, not full screen (env", "MODHOST_UI=plain)"],
        apply: { parsed, _, _ in parsed.plain = true })
    static let logLevel = Option(
        id: "log.level", names: ["--log-level"], value: "LEVEL", summary: ["trace, debug, info, warn (default), error or critical"],
        apply: { parsed, value, _ throws(UsageError) in parsed.logLevel = try CommandLineArguments.logLevel(value) },
        pass: { $0.logLevel == .warn ? [] : [$0.logLevel.rawValue] })
    static let help = Option(
        id: "help", names: ["-h", "--help"], value: nil, summary: ["Show this help and the modules (read from their files)"],
        apply: { parsed, _, _ in parsed.help = true })
    static let version = Option(
        id: "version", names: ["--version"], value: nil, summary: ["Show the versions of modhost, its ABI and its SDK"],
        apply: { parsed, _, _ in parsed.version = true })

    /// The global options, in the order `--help` lists them.
    static let options: [Option] = [
        config, dataFolder, only, enable, disable, module, retry, noCrashRecords, plain, logLevel, help, version,
    ]

    /// The options of one built-in command (its row's usage shows them).
    static let commandOptions: [Option] = [
        Option(
            id: "modules.json", names: ["--json"], value: nil, summary: ["The list as one JSON document"], command: "modules",
            apply: { parsed, _, _ in parsed.commandOptions.json = true }),
        Option(
            id: "bisect.keep", names: ["--keep"], value: "NAME", summary: ["Keep this module in every try (repeatable, or A,B)"],
            command: "bisect",
            apply: { parsed, value, name throws(UsageError) in
                parsed.commandOptions.keep += try CommandLineArguments.names(value, for: name)
            }),
        Option(
            id: "check.json", names: ["--json"], value: nil, summary: ["The problems as one JSON document"], command: "check",
            apply: { parsed, _, _ in parsed.commandOptions.json = true }),
        Option(
            id: "modules.timing", names: ["--timing"], value: nil,
            summary: ["The time each module took in each phase, its share of the start, and the memory it added"], command: "modules",
            apply: { parsed, _, _ in parsed.commandOptions.timing = true }),
        Option(
            id: "graph.format", names: ["--format"], value: "FORMAT", summary: ["text (the default), dot, or svg through Graphviz"],
            command: "graph",
            apply: { parsed, value, name throws(UsageError) in
                parsed.commandOptions.format = try CommandLineArguments.nonEmpty(value, for: name)
            }, values: RouteGraph.formats),
        Option(
            id: "new.output", names: ["--output"], value: "DIR", summary: ["Where to write the package"], command: "new",
            apply: { parsed, value, name throws(UsageError) in
                parsed.commandOptions.output = try CommandLineArguments.nonEmpty(value, for: name)
            }),
        Option(
            id: "new.kit", names: ["--kit"], value: "DIR", summary: ["The kit package to build against"], command: "new",
            apply: { parsed, value, name throws(UsageError) in
                parsed.commandOptions.kit = try CommandLineArguments.nonEmpty(value, for: name)
            }),
        Option(
            id: "new.route", names: ["--route"], value: nil, summary: ["Also write a contracts package with a route"], command: "new",
            apply: { parsed, _, _ in parsed.commandOptions.route = true }),
    ]

    /// The option named `name` where `command` (the first word, if any) is being parsed.
    static func option(named name: String, command: String?) -> Option? {
        options.first { $0.names.contains(name) } ?? commandOptions.first { $0.command == command && $0.names.contains(name) }
    }

    /// Every spelling of the options that can be given where `command` is parsed, for suggestions.
    static func optionNames(command: String?) -> [String] {
        optionNames + commandOptions.filter { $0.command == command }.flatMap(\.names)
    }

    /// Every spelling of every option, for the parser's suggestions.
    static var optionNames: [String] { options.flatMap(\.names) }

    /// The commands, then a blank line, then the options: what `--help` and docs/USING.md show;
    /// each summary in `strings`' language when they have it (wrapped to fit 80 columns), else
    /// the English lines written here.
    static func usageLines(strings: ModuleStrings? = nil) -> [String] {
        let width = (commands.filter { !$0.hidden }.map(\.usage) + options.map(\.usage)).map(\.count).max() ?? 0
        func lines(_ usage: String, _ english: [String], _ key: String) -> [String] {
            var summary = english
            // In English, the lines as broken here (docs/USING.md shows them); else wrapped.
            if let strings, strings[StringKey(key)] != key, strings[StringKey(key)] != english.joined(separator: " ") {
                summary = HelpText.wrap(strings[StringKey(key)], width: 80 - width - 4, indent: "")
            }
            // "(none)", the one usage that is a word rather than what to type.
            let shown = usage == "(none)" ? HostText("help.usage.none", usage).render(strings) : usage
            var result = ["  " + shown.padding(to: width + 1) + " " + (summary.first ?? "")]
            result += summary.dropFirst().map { String(repeating: " ", count: width + 4) + $0 }
            return result
        }
        return commands.filter { !$0.hidden }.flatMap { lines($0.usage, $0.summary, "help.command." + $0.id) } + [""]
            + options.flatMap { lines($0.usage, $0.summary, "help.option." + $0.id) }
    }
}
