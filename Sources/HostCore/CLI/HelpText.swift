import ModuleKit

/// The text of `modhost --help`, with the modules as their descriptors describe them (no
/// module code runs), and of `modhost <module> --help`.
enum HelpText {
    static func render(modules: [ModuleReport]) -> String {
        var lines = [
            "OVERVIEW: modhost loads the feature modules listed in modules.json and runs the app they make up.",
            "",
            "USAGE: modhost [OPTIONS] [COMMAND]",
            "",
            "COMMANDS:",
            "  (none)                  Start the modules and run the interactive app",
            "  modules [--json]        Start the modules, then list each with its state, reason and routes",
            "  check                   Validate modules.json and every enabled library; start nothing",
            "  routes                  Start the modules, then list each route, its provider and consumers",
            "  bisect -- ARGS...       Find the smallest set of modules with which 'modhost ARGS' fails",
            "  <module> <command> ...  Run a command an active module contributes (below)",
            "",
            "OPTIONS:",
            "  --config PATH           The modules.json to read (default ./modules.json; env MODHOST_CONFIG)",
            "  --data-dir PATH         Where modules keep their data (env MODHOST_DATA_DIR;",
            "                          default $XDG_DATA_HOME/modhost or ~/.local/share/modhost)",
            "  --only NAME[,NAME...]   Load just these modules plus the modules they require",
            "  --enable NAME           Enable a module for this run (repeatable, or NAME,NAME)",
            "  --disable NAME          Disable a module for this run (repeatable, or NAME,NAME)",
            "  --retry NAME|all        Try a module again that crashed, exited or hung the host",
            "  --no-crash-records      Neither skip recorded crashes nor record new ones",
            "  --log-level LEVEL       trace, debug, info, warn (default), error or critical",
            "  -h, --help              Show this help",
            "  --version               Show the version of modhost and of its module ABI",
            "",
            "MODULES ('modhost <module> --help' lists a module's commands):",
        ]
        if modules.isEmpty {
            lines.append("  (none in modules.json)")
        } else {
            let width = modules.map(\.name.count).max() ?? 0
            lines += modules.map { module in
                let version = module.version.map { " \($0)" } ?? ""
                return "  " + module.name.lowercased().padding(to: width + 1) + " \(module.state.rawValue)\(version)"
            }
        }
        lines += ["", "Exit codes: 0 success, 1 failure, 2 bad usage."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func renderModule(_ name: String, commands: [ModuleCommand]) -> String {
        var lines = ["USAGE: modhost \(name.lowercased()) <command> ...", "", "COMMANDS:"]
        if commands.isEmpty {
            lines.append("  (none)")
        } else {
            let rows = commands.map { ("  \(name.lowercased()) \($0.usage)", $0.summary) }
            let width = rows.map(\.0.count).max() ?? 0
            lines += rows.map { $0.0.padding(to: width + 2) + $0.1 }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
