import HostLifecycle
import HostModel
import ModuleKit

/// `modhost manual`: the manual page, `modhost.1` in roff, made from the one command table.
enum ManualPage {
    /// The page, with a MODULE COMMANDS section for `modules`: each enabled module's command
    /// word and the commands its manifest declares.
    static func text(modules: [(String, [DeclaredCommand])] = []) -> String {
        var lines = [
            #".TH MODHOST 1 "" "modhost \#(HostRuntime.version)" "User Commands""#,
            ".SH NAME",
            #"modhost \- a plugin host that loads the modules listed in modules.json and runs their app"#,
            ".SH SYNOPSIS",
            ".B modhost",
            #"[\fIOPTIONS\fR] [\fICOMMAND\fR]"#,
            ".SH DESCRIPTION",
            escape(
                "modhost reads modules.json, checks each enabled module library without running it, loads the libraries, orders the modules by the routes they provide and require, starts them and runs the app they make up. 'modhost <module> --help' lists a module's commands."
            ),
            ".SH COMMANDS",
        ]
        for command in CommandLineTable.commands where !command.hidden {
            lines += [".TP", ".B " + escape(command.usage), escape(command.summary.joined(separator: " "))]
            for option in command.options {
                lines += [".RS", ".TP", ".B " + escape(option.usage), escape(option.summary.joined(separator: " ")), ".RE"]
            }
            if let example = command.example { lines += [".RS", "Example: " + #"\fB"# + escape(example) + #"\fR"#, ".RE"] }
        }
        lines.append(".SH OPTIONS")
        for option in CommandLineTable.options {
            lines += [".TP", ".B " + escape(option.usage), escape(option.summary.joined(separator: " "))]
        }
        lines += moduleCommands(modules)
        lines += keys
        lines += [
            ".SH ENVIRONMENT",
            ".TP", ".B MODHOST_CONFIG", escape("The modules.json to read when --config is not given (default ./modules.json)."),
            ".TP", ".B MODHOST_DATA_DIR",
            escape("Where modules keep their data (default $XDG_DATA_HOME/modhost or ~/.local/share/modhost)."),
            ".TP", ".B LANG, LC_ALL, LC_MESSAGES",
            escape("The language of messages and screens (en, es, fr, de, it, el; LC_ALL=C for English)."),
            ".SH EXIT STATUS",
            escape("0 success, 1 failure, 2 bad usage; 128 plus the signal's number when a signal ended it."),
            ".SH SEE ALSO",
            escape("'modhost completion bash|zsh|fish' prints a completion script; docs/USING.md and docs/OPERATING.md in the sources."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the modules of this run's modules.json add, from their manifests.
    static func moduleCommands(_ modules: [(String, [DeclaredCommand])]) -> [String] {
        guard !modules.isEmpty else { return [] }
        var lines = [
            ".SH MODULE COMMANDS",
            escape(
                "The enabled modules of this modules.json add these; 'modhost <module> <command> --help' shows one's options and an example."
            ),
        ]
        for (word, commands) in modules {
            let list = commands.map { ([$0.name] + $0.options.map { "[\($0)]" }).joined(separator: " ") }
            lines += [".TP", ".B " + escape("modhost \(word)"), escape(list.joined(separator: ", "))]
        }
        return lines
    }

    /// The keys of the full-screen app, as `?` shows them on each kind of screen: the host's
    /// English strings (the same the app shows), a key and what it does per entry.
    static var keys: [String] {
        let strings = try? ModuleStrings.load(
            module: HostRuntime.hostName, from: HostRuntime.hostStringsFolder, locale: LocaleSetting(environment: [:]))
        var lines = [
            ".SH KEYS",
            escape(
                "On a terminal the app runs full screen; '?' on any screen shows that screen's keys. In a menu, a question and the pager:"
            ),
        ]
        let groups: [(String, [String])] = [
            ("Menus", ["move", "open", "number", "filter", "back", "help", "mouse"]),
            ("Questions", ["answer", "edit", "suggestions"]),
            ("The pager", ["pager"]),
        ]
        for (title, entries) in groups {
            lines += [".SS " + escape(title)]
            for entry in entries {
                let key = StringKey("screen.keys." + entry)
                guard let text = strings?[key], text != key.rawValue else { continue }
                for part in text.split(separator: " · ", omittingEmptySubsequences: false) {
                    // "Enter  →   open the selection": the keys, three spaces, what they do.
                    let pieces = part.split(separator: "   ", omittingEmptySubsequences: false)
                    lines += [".TP", ".B " + escape(String(pieces[0])), escape(pieces.dropFirst().joined(separator: " "))]
                }
            }
        }
        lines += [".TP", ".B q", escape("Quit; in a question over a screen (delete, replace) it cancels, in an alert it closes it.")]
        return lines
    }

    /// `text` safe in roff: backslashes doubled, hyphens as `\-`, no line starting with a dot.
    static func escape(_ text: String) -> String {
        let escaped = text.replacing("\\", with: "\\\\").replacing("-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
