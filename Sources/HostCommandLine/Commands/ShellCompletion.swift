import HostModel
import ModuleKit

/// `modhost completion bash|zsh|fish`: a completion script made from the one command table.
/// Module names come at completion time from `modhost __modules`, which reads modules.json and
/// nothing else: no library is opened, no module code runs.
enum ShellCompletion {
    static let shells = ["bash", "zsh", "fish"]

    /// The built-in command words a person types (not the internal ones).
    static var commandWords: [String] { CommandLineTable.commandWords }

    /// Every option the table declares, global ones first.
    static var allOptions: [CommandLineTable.Option] { CommandLineTable.options + commandOptions.map(\.option) }

    /// Each built-in command's own options, with the word of their command.
    static var commandOptions: [(command: String, option: CommandLineTable.Option)] {
        CommandLineTable.commands.flatMap { command in command.word.map { word in command.options.map { (word, $0) } } ?? [] }
    }

    /// The global options' spellings.
    static var globalOptionNames: [String] { CommandLineTable.options.flatMap(\.names) }

    /// The spellings of `command`'s own options, each once (`--json` is declared by several).
    static func optionNames(of command: String) -> [String] {
        unique(CommandLineTable.command(named: command)?.options.flatMap(\.names) ?? [])
    }

    /// The commands that have options of their own.
    static var commandsWithOptions: [String] { unique(commandOptions.map(\.command)) }

    /// Options whose value is module names, paths, or a log level, from their placeholder.
    static func options(taking kind: ValueKind) -> [String] {
        unique(allOptions.filter { ValueKind($0.value) == kind && $0.values.isEmpty }.flatMap(\.names))
    }

    /// Every option that takes a value: the word after it is that value, not a command.
    static var optionsTakingValues: [String] { unique(allOptions.filter { $0.value != nil }.flatMap(\.names)) }

    /// The options whose values are a few words, with those words.
    static var enumeratedOptions: [(names: [String], values: [String])] {
        allOptions.filter { !$0.values.isEmpty }.map { ($0.names, $0.values) }
    }

    /// The built-in commands whose argument is one of a few words.
    static var commandArguments: [(word: String, values: [String])] {
        CommandLineTable.commands.compactMap { command in command.word.flatMap { command.arguments.isEmpty ? nil : ($0, command.arguments) }
        }
    }

    private static func unique(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        return words.filter { seen.insert($0).inserted }
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
        let enumerated = enumeratedOptions.map {
            "        \($0.names.joined(separator: "|"))) words=\"\($0.values.joined(separator: " "))\" ;;"
        }
        let ownOptions = commandsWithOptions.map { "        \($0)) options=\"$options \(optionNames(of: $0).joined(separator: " "))\" ;;" }
        let arguments = commandArguments.map { "        \($0.word)) words=\"\($0.values.joined(separator: " "))\" ;;" }
        return """
            # modhost completion for bash: source <(modhost completion bash), or save it as
            # /usr/share/bash-completion/completions/modhost. Generated from modhost's command table:
            # every word is completed in its place (an option's value, a command's own options and
            # argument); module names come from 'modhost __modules', which opens no library.
            _modhost() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command="" sub="" words="" options="\(globalOptionNames.joined(separator: " "))"
                [ "$COMP_CWORD" -gt 0 ] && prev="${COMP_WORDS[COMP_CWORD-1]}"
                # The command, and a module's command after it: the first words that are no
                # option and no option's value.
                local i=1
                while [ "$i" -lt "$COMP_CWORD" ]; do
                    case "${COMP_WORDS[i]}" in
                        \(optionsTakingValues.joined(separator: "|"))) i=$((i + 1)) ;;
                        -*) ;;
                        *) if [ -z "$command" ]; then command="${COMP_WORDS[i]}"; elif [ -z "$sub" ]; then sub="${COMP_WORDS[i]}"; fi ;;
                    esac
                    i=$((i + 1))
                done
                local builtin=0
                case "$command" in \(commandWords.joined(separator: "|"))) builtin=1 ;; esac
                case "$prev" in
                    \(options(taking: .modules).joined(separator: "|")))
                        COMPREPLY=($(compgen -W "$(modhost __modules 2>/dev/null | tr '\\n' ' ')" -- "$cur")); return ;;
                    \(options(taking: .path).joined(separator: "|")))
                        COMPREPLY=($(compgen -f -- "$cur")); return ;;
                    \(options(taking: .level).joined(separator: "|")))
                        COMPREPLY=($(compgen -W "\(levels.joined(separator: " "))" -- "$cur")); return ;;
            \(enumerated.joined(separator: "\n"))
                esac
                if [ -n "$words" ]; then COMPREPLY=($(compgen -W "$words" -- "$cur")); return; fi
                case "$command" in
            \(ownOptions.joined(separator: "\n"))
                esac
                # A module's command's options, from its manifest (no library is opened).
                if [ "$builtin" = 0 ] && [ -n "$sub" ]; then
                    options="$options $(modhost __commands "$command" "$sub" 2>/dev/null | tr '\\n' ' ')"
                fi
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur")); return
                fi
                case "$command" in
                    "") words="\(commandWords.joined(separator: " ")) $(modhost __modules words 2>/dev/null | tr '\\n' ' ')" ;;
                    help) words="\(commandWords.filter { $0 != "help" }.joined(separator: " ")) $(modhost __modules words 2>/dev/null | tr '\\n' ' ')" ;;
            \(arguments.joined(separator: "\n"))
                    *) [ "$builtin" = 0 ] && [ -z "$sub" ] && words="$(modhost __commands "$command" 2>/dev/null | tr '\\n' ' ')" ;;
                esac
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
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
            "complete -c modhost -n '__fish_seen_subcommand_from help' -a '\(commandWords.filter { $0 != "help" }.joined(separator: " "))'",
            "complete -c modhost -n '__fish_seen_subcommand_from help' -a '(modhost __modules words 2>/dev/null)'",
        ]
        for (word, values) in commandArguments {
            lines.append("complete -c modhost -n '__fish_seen_subcommand_from \(word)' -a '\(values.joined(separator: " "))'")
        }
        // A module's commands after its word, and a command's options after it, from the
        // module's manifest (`modhost __commands`, which opens no library).
        lines += [
            "function __modhost_words; set -l t (commandline -opc); set -e t[1]; string match -v -- '-*' $t; end",
            "function __modhost_module; set -l w (__modhost_words); test (count $w) -ge 1; and not contains -- $w[1] \(commandWords.joined(separator: " ")); and echo $w[1]; end",
            "complete -c modhost -n 'set -l w (__modhost_words); test (count $w) -eq 1; and __modhost_module >/dev/null' -a '(modhost __commands (__modhost_module) 2>/dev/null)'",
            "complete -c modhost -n 'set -l w (__modhost_words); test (count $w) -ge 2; and __modhost_module >/dev/null' -a '(set -l w (__modhost_words); modhost __commands $w[1] $w[2] 2>/dev/null)'",
        ]
        // Each option once: a global one everywhere, a command's own after that command.
        var written: Set<String> = []
        let scoped = CommandLineTable.options.map { (command: String?.none, option: $0) } + commandOptions.map { ($0.command, $0.option) }
        for (command, option) in scoped {
            let summary = option.summary.joined(separator: " ").replacing("'", with: "\\'")
            let condition = command.map { " -n '__fish_seen_subcommand_from \($0)'" } ?? ""
            for name in option.names where written.insert(name + condition).inserted {
                let flag = name.hasPrefix("--") ? "-l \(name.dropFirst(2))" : "-s \(name.dropFirst())"
                var line = "complete -c modhost\(condition) \(flag) -d '\(summary)'"
                if !option.values.isEmpty {
                    line += " -x -a '\(option.values.joined(separator: " "))'"
                } else {
                    switch ValueKind(option.value) {
                    case .none: break
                    case .modules: line += " -x -a '(modhost __modules 2>/dev/null)'"
                    case .path: line += " -r -F"
                    case .level: line += " -x -a '\(levels.joined(separator: " "))'"
                    case .other: line += " -x"
                    }
                }
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
