import ModuleKit

/// The text of `modhost --help`, with the modules as their descriptors describe them (no
/// module code runs), and of `modhost <module> --help`.
enum HelpText {
    static func render(modules: [ModuleReport]) -> String {
        let usage = CommandLineTable.usageLines
        let blank = usage.firstIndex(of: "") ?? usage.count
        var lines = [
            "OVERVIEW: modhost loads the modules listed in modules.json and runs their app.",
            "",
            "USAGE: modhost [OPTIONS] [COMMAND]",
            "",
            "COMMANDS:",
        ]
        lines += usage[..<blank]
        lines += ["", "OPTIONS:"]
        lines += usage[min(blank + 1, usage.count)...]
        lines += [
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
