import ModuleKit

/// The built-in commands and global options of `modhost`, written once: `--help` renders them,
/// the parser knows its options from them, and a test holds the usage block of docs/USING.md to them.
enum CommandLineTable {
    /// One row: what a person types, and what it does (lines of at most 54 characters, so
    /// that help fits 80 columns).
    struct Row {
        let usage: String
        let summary: [String]
        /// The summary's key in the host's strings (`help.command.<id>`).
        var id = ""
    }

    static let commands: [Row] = zip(commandIDs, englishCommands).map { id, row in Row(usage: row.usage, summary: row.summary, id: id) }
    private static let commandIDs = ["run", "modules", "check", "routes", "bisect", "new", "dev", "module.command", "module.help"]
    private static let englishCommands: [Row] = [
        Row(usage: "(none)", summary: ["Start the modules and run the interactive app"]),
        Row(usage: "modules [--json]", summary: ["List each module with its state, reason and routes"]),
        Row(usage: "check", summary: ["Validate modules.json and every enabled library", "(loaded in a child process); start nothing"]),
        Row(usage: "routes", summary: ["List each route, its provider and consumers"]),
        Row(usage: "bisect -- ARGS...", summary: ["Find the fewest modules that make 'modhost ARGS'", "fail"]),
        Row(
            usage: "new NAME",
            summary: ["Write a module package built against this host's kit", "(into ./NAME, or --output DIR; --kit DIR; --route)"]),
        Row(
            usage: "dev PATH [-- ARGS...]",
            summary: ["Rebuild the module package at PATH on every change", "and run 'modhost ARGS' (or the app) with it"]),
        Row(usage: "<module> <command> ...", summary: ["Run a command an active module contributes"]),
        Row(usage: "<module> --help", summary: ["List a module's commands"]),
    ]

    /// A global option: its spellings, the value it takes (if any), and what it does.
    struct Option {
        let names: [String]
        let value: String?
        let summary: [String]
        /// The summary's key in the host's strings (`help.option.<id>`).
        var id = ""

        var usage: String { names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") }
    }

    static let options: [Option] = zip(optionIDs, englishOptions).map { id, option in
        Option(names: option.names, value: option.value, summary: option.summary, id: id)
    }
    private static let optionIDs = [
        "config", "data.dir", "only", "enable", "disable", "module", "retry", "no.crash.records", "log.level", "help", "version",
    ]
    private static let englishOptions: [Option] = [
        Option(names: ["--config"], value: "PATH", summary: ["The modules.json to read (default ./modules.json;", "env MODHOST_CONFIG)"]),
        Option(
            names: ["--data-dir"], value: "PATH",
            summary: [
                "Where modules keep their data (env MODHOST_DATA_DIR;", "default $XDG_DATA_HOME/modhost or", "~/.local/share/modhost)",
            ]),
        Option(names: ["--only"], value: "NAME[,NAME...]", summary: ["Load just these modules plus the modules they require"]),
        Option(names: ["--enable"], value: "NAME", summary: ["Enable a module for this run (repeatable, or A,B)"]),
        Option(names: ["--disable"], value: "NAME", summary: ["Disable a module for this run (repeatable, or A,B)"]),
        Option(names: ["--module"], value: "PATH", summary: ["Also load this lib<Name>.so for this run (repeatable)"]),
        Option(names: ["--retry"], value: "NAME|all", summary: ["Try again a module that crashed, exited or hung"]),
        Option(names: ["--no-crash-records"], value: nil, summary: ["Neither skip recorded crashes nor record new ones"]),
        Option(names: ["--log-level"], value: "LEVEL", summary: ["trace, debug, info, warn (default), error or critical"]),
        Option(names: ["-h", "--help"], value: nil, summary: ["Show this help and the modules (read from their files)"]),
        Option(names: ["--version"], value: nil, summary: ["Show the versions of modhost, its ABI and its SDK"]),
    ]

    /// Every spelling of every option, for the parser's suggestions.
    static var optionNames: [String] { options.flatMap(\.names) }

    /// The commands, then a blank line, then the options: what `--help` and docs/USING.md show;
    /// each summary in `strings`' language when they have it (wrapped to fit 80 columns), else
    /// the English lines written here.
    static func usageLines(strings: ModuleStrings? = nil) -> [String] {
        let width = (commands.map(\.usage) + options.map(\.usage)).map(\.count).max() ?? 0
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
        return commands.flatMap { lines($0.usage, $0.summary, "help.command." + $0.id) } + [""]
            + options.flatMap { lines($0.usage, $0.summary, "help.option." + $0.id) }
    }
}
