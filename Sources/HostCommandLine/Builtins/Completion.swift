extension Builtins {
    /// `modhost completion SHELL`: a completion script for bash, zsh or fish.
    struct Completion: CommandWithoutModules, Equatable {
        let shell: String

        static let declaration = Builtin(
            id: "completion", word: "completion", usage: "completion SHELL", summary: ["Print a completion script for bash, zsh or fish"],
            access: .readsOnly,
            make: { rest, _ throws(UsageError) in
                guard let shell = rest.first, ShellCompletion.shells.contains(shell), rest.count == 1 else {
                    throw UsageError(
                        key: "usage.completion", [rest.first ?? ""],
                        english: "'completion' needs a shell, bash, zsh or fish, found '\(rest.first ?? "")'; see 'modhost help completion'"
                    )
                }
                return Completion(shell: shell)
            }, example: "source <(modhost completion bash)", arguments: ShellCompletion.shells)

        func run(_ context: CommandContext) -> Int32? {
            context.console.out(ShellCompletion.script(for: shell) ?? "")
            return ModhostCommandLine.exitSuccess
        }
    }
}
