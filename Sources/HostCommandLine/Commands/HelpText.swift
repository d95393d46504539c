import HostLifecycle
import HostModel
import ModuleKit

/// The text of `modhost --help`, with the modules as their descriptors describe them (no
/// module code runs), and of `modhost <module> --help`.
enum HelpText {
    /// `strings`: the host's, for the person's language (English without them).
    static func render(modules: [ModuleReport], strings: ModuleStrings? = nil) -> String {
        func say(_ key: String, _ english: String) -> String { HostText(key, english).render(strings) }
        let usage = CommandLineTable.usageLines(strings: strings)
        let blank = usage.firstIndex(of: "") ?? usage.count
        var lines = wrap(
            say("help.overview", "OVERVIEW: modhost loads the modules listed in modules.json and runs their app."), width: 80, indent: "  ")
        lines += ["", say("help.usage.line", "USAGE: modhost [OPTIONS] [COMMAND]"), "", say("help.commands.title", "COMMANDS:")]
        lines += usage[..<blank]
        lines += ["", say("help.options.title", "OPTIONS:")]
        lines += usage[min(blank + 1, usage.count)...]
        lines +=
            [""]
            + wrap(say("help.modules.title", "MODULES ('modhost <module> --help' lists a module's commands):"), width: 80, indent: "  ")
        if modules.isEmpty {
            lines.append("  " + say("help.modules.none", "(none in modules.json)"))
        } else {
            let width = modules.map(\.name.count).max() ?? 0
            lines += modules.map { module in
                let version = module.version.map { " \($0)" } ?? ""
                let state = module.state.word.render(strings)
                return "  " + ModuleName(module.name).commandWord.padding(to: width + 1) + " \(state)\(version)"
            }
        }
        lines += [""] + wrap(say("help.exit.codes", "Exit codes: 0 success, 1 failure, 2 bad usage."), width: 80, indent: "")
        return lines.joined(separator: "\n") + "\n"
    }

    static func renderModule(_ name: String, commands: [ModuleCommand], strings: ModuleStrings) -> String {
        let module = ModuleName(name).commandWord
        var lines = ["\(strings[.helpUsage]) modhost \(module) <command> ...", "", strings[.helpCommands]]
        if commands.isEmpty { lines.append("  " + strings[.helpNone]) }
        for command in commands {
            // The usage on its own line, the summary under it: both fit 80 columns.
            lines.append("  modhost \(module) \(command.usage)")
            lines += wrap(command.summary, width: 74, indent: "").map { "      " + $0 }
        }
        lines += [""] + wrap(strings.format(.helpMore, "'modhost \(module) \(strings[.helpCommandWord]) --help'"), width: 80, indent: "")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension HelpText {
    /// `modhost <module> <command> --help`: usage, summary, options and example, wrapped to
    /// 80 columns; the headings in the host's strings, the rest in the module's.
    static func renderCommand(_ module: String, _ command: ModuleCommand, strings: ModuleStrings) -> String {
        render(
            usage: "modhost \(ModuleName(module).commandWord) \(command.usage)", summary: command.summary, options: command.options,
            example: command.example, strings: strings)
    }

    /// `modhost COMMAND --help` and `modhost help COMMAND` for a built-in command, from its
    /// declaration, in `strings`' language.
    static func renderBuiltin(_ builtin: Builtin, strings: ModuleStrings?) -> String {
        let summary = HostText("help.command." + builtin.id, builtin.summary.joined(separator: " ")).render(strings)
        let options = builtin.options.map { option in
            CommandOption(option.usage, HostText("help.option." + option.id, option.summary.joined(separator: " ")).render(strings))
        }
        let usage = builtin.word == nil ? "modhost" : "modhost " + builtin.usage
        return render(
            usage: usage, summary: summary, options: options, example: builtin.example,
            strings: strings ?? .none(locale: LocaleSetting(environment: [:])))
    }

    /// Usage, summary, options and example, wrapped to 80 columns.
    private static func render(usage: String, summary: String, options: [CommandOption], example: String?, strings: ModuleStrings) -> String
    {
        var lines = wrap("\(strings[.helpUsage]) \(usage)", width: 80, indent: "    ") + [""]
        lines += wrap(summary, width: 80, indent: "")
        if !options.isEmpty {
            lines += ["", strings[.helpOptions]]
            let width = min(options.map(\.usage.count).max() ?? 0, 24)
            let indent = String(repeating: " ", count: width + 4)
            for option in options {
                let text = wrap(option.summary, width: 80 - indent.count, indent: "")
                if option.usage.count <= width {
                    lines.append("  " + option.usage.padding(to: width + 2) + (text.first ?? ""))
                    lines += text.dropFirst().map { indent + $0 }
                } else {
                    lines.append("  " + option.usage)
                    lines += text.map { indent + $0 }
                }
            }
        }
        if let example { lines += ["", strings[.helpExample], "  " + example] }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrap(_ text: String, width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.isEmpty || line == indent ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
