import HostLifecycle
import HostModel

/// `modhost manual`: the manual page, `modhost.1` in roff, made from the one command table.
enum ManualPage {
    static var text: String {
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
            for option in CommandLineTable.commandOptions where option.command == command.id {
                lines += [".RS", ".TP", ".B " + escape(option.usage), escape(option.summary.joined(separator: " ")), ".RE"]
            }
            if let example = command.example { lines += [".RS", "Example: " + #"\fB"# + escape(example) + #"\fR"#, ".RE"] }
        }
        lines.append(".SH OPTIONS")
        for option in CommandLineTable.options {
            lines += [".TP", ".B " + escape(option.usage), escape(option.summary.joined(separator: " "))]
        }
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

    /// `text` safe in roff: backslashes doubled, hyphens as `\-`, no line starting with a dot.
    static func escape(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}
