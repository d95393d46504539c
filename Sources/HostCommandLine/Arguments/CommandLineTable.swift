import HostModel
import ModuleKit

/// The built-in commands and the global options of `modhost`, each declared once, with its id
/// (the key of its summary in the host's strings, `help.command.<id>` / `help.option.<id>`):
/// `--help` renders them, the parser reads what each option sets from here, a child `modhost`
/// is given the options that choose its modules from here, and a test holds the usage block
/// of docs/USING.md to them. A command's declaration, with its own options and its handler,
/// is in its file in `Builtins/`.
enum CommandLineTable {
    /// Every built-in command, in the order `--help` lists them. Adding one: its declaration
    /// and handler in a file of `Builtins/`, its line here, its strings in the six languages,
    /// and the user docs (CONTRIBUTING.md, "Adding a host command").
    static let commands: [Builtin] = [
        Builtins.App.declaration, Builtins.Modules.declaration, Builtins.Check.declaration, Builtins.Routes.declaration,
        Builtins.Graph.declaration, Builtins.Bisect.declaration, Builtins.New.declaration, Builtins.Dev.declaration,
        Builtins.Help.declaration, Builtins.Completion.declaration, Builtins.Manual.declaration, Builtins.OfModule.declaration,
        Builtins.ModuleHelp.declaration, Builtins.ListModules.declaration, Builtins.ListCommands.declaration,
        Builtins.Probe.declaration, Builtins.ModuleHost.declaration,
    ]

    /// The built-in command named `word`, if there is one.
    static func command(named word: String) -> Builtin? {
        commands.first { $0.word == word }
    }

    /// The word of every built-in command, for suggestions.
    static var commandWords: [String] { commands.filter { !$0.hidden }.compactMap(\.word) }

    /// An option: its spellings, the value it takes (if any), what it does, what it sets, and
    /// how a child is given the same. A global one is declared below; a command's own, with
    /// its command.
    struct Option: Sendable {
        typealias Apply = @Sendable (_ parsed: inout CommandLineArguments, _ value: String, _ name: String) throws(UsageError) -> Void

        let id: String
        let names: [String]
        let value: String?
        let summary: [String]
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
    static let isolate = Option(
        id: "isolate", names: ["--isolate"], value: "NAME", summary: ["Run a module in a process of its own", "(repeatable, or A,B)"],
        apply: { parsed, value, name throws(UsageError) in parsed.isolate += try CommandLineArguments.names(value, for: name) },
        pass: { $0.isolate.isEmpty ? [] : [$0.isolate.joined(separator: ",")] })
    static let sandboxAudit = Option(
        id: "sandbox.audit", names: ["--sandbox-audit"], value: "NAME",
        summary: ["Run a module in a process of its own whose sandbox", "lets all through and says what it used"],
        apply: { parsed, value, name throws(UsageError) in parsed.sandboxAudit += try CommandLineArguments.names(value, for: name) },
        pass: { $0.sandboxAudit.isEmpty ? [] : [$0.sandboxAudit.joined(separator: ",")] })
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
        config, dataFolder, only, enable, disable, isolate, sandboxAudit, module, retry, noCrashRecords, plain, logLevel, help, version,
    ]

    /// The option named `name` where `command` (the first word, if any) is being parsed.
    static func option(named name: String, command: String?) -> Option? {
        options.first { $0.names.contains(name) } ?? command.flatMap(Self.command(named:))?.options.first { $0.names.contains(name) }
    }

    /// Every spelling of the options that can be given where `command` is parsed, for suggestions.
    static func optionNames(command: String?) -> [String] {
        optionNames + (command.flatMap(Self.command(named:))?.options.flatMap(\.names) ?? [])
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
