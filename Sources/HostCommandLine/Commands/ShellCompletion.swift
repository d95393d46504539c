import HostModel
import ModuleKit

/// `modhost completion bash|zsh|fish`: a completion script made from the one command table.
/// Module names come at completion time from `modhost __modules`, which reads modules.json and
/// nothing else: no library is opened, no module code runs.
enum ShellCompletion {
    static let shells = ["bash", "zsh", "fish"]

    /// The built-in command words a person types (not the internal ones).
    static var commandWords: [String] { CommandLineTable.commandWords }

    /// Every option's spellings, global and commands' own.
    static var optionNames: [String] { (CommandLineTable.options + CommandLineTable.commandOptions).flatMap(\.names) }

    /// Options whose value is module names, paths, or a log level, from their placeholder.
    static func options(taking kind: ValueKind) -> [String] {
        (CommandLineTable.options + CommandLineTable.commandOptions).filter { ValueKind($0.value) == kind }.flatMap(\.names)
    }

    enum ValueKind: Equatable {
        case none, modules, path, level, other

        init(_ placeholder: String?) {
            switch placeholder {
            case nil: self = .none
            case let value? where value.hasPrefix("NAME"): self = .modules
            case "PATH"?, "DIR"?: self = .path
            case "LEVEL"?: self = .level
            default: self = .other
            }
        }
    }

    static var levels: [String] { LogLevel.allCases.map(\.rawValue) }

    /// The script for `shell`, or `nil` for a shell it does not know.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh":
            """
            # modhost completion for zsh: source <(modhost completion zsh). zsh runs the bash
            # completion through bashcompinit, which needs compinit.
            (( $+functions[compdef] )) || { autoload -U +X compinit && compinit -u }
            autoload -U +X bashcompinit && bashcompinit

            """ + bash
        case "fish": fish
        default: nil
        }
    }

    private static var bash: String {
        """
        # modhost completion for bash: source <(modhost completion bash), or save it as
        # /usr/share/bash-completion/completions/modhost. Generated from modhost's command table.
        _modhost() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev=""
            [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
            case "$prev" in
                \(options(taking: .modules).joined(separator: "|")))
                    COMPREPLY=($(compgen -W "$(modhost __modules 2>/dev/null | tr '\\n' ' ')" -- "$cur")); return ;;
                \(options(taking: .path).joined(separator: "|")))
                    COMPREPLY=($(compgen -f -- "$cur")); return ;;
                \(options(taking: .level).joined(separator: "|")))
                    COMPREPLY=($(compgen -W "\(levels.joined(separator: " "))" -- "$cur")); return ;;
            esac
            if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "\(optionNames.joined(separator: " "))" -- "$cur"))
            else
                local modules
                modules="$(modhost __modules words 2>/dev/null | tr '\\n' ' ')"
                COMPREPLY=($(compgen -W "\(commandWords.joined(separator: " ")) $modules" -- "$cur"))
            fi
        }
        complete -F _modhost modhost

        """
    }

    private static var fish: String {
        var lines = [
            "# modhost completion for fish: modhost completion fish | source, or save it as",
            "# ~/.config/fish/completions/modhost.fish. Generated from modhost's command table.",
            "complete -c modhost -f",
            "complete -c modhost -n __fish_use_subcommand -a '\(commandWords.joined(separator: " "))'",
            "complete -c modhost -n __fish_use_subcommand -a '(modhost __modules words 2>/dev/null)'",
        ]
        for option in CommandLineTable.options + CommandLineTable.commandOptions {
            let summary = option.summary.joined(separator: " ").replacingOccurrences(of: "'", with: "\\'")
            for name in option.names {
                let flag = name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
                var line = "complete -c modhost \(flag) -d '\(summary)'"
                switch ValueKind(option.value) {
                case .none: break
                case .modules: line += " -x -a '(modhost __modules 2>/dev/null)'"
                case .path: line += " -r -F"
                case .level: line += " -x -a '\(levels.joined(separator: " "))'"
                case .other: line += " -x"
                }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
