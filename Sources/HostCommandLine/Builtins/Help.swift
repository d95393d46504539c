import HostLifecycle

extension Builtins {
    /// `modhost help [COMMAND]`, and `--help` anywhere before a module's command: a built-in
    /// command's help (no modules.json read), a module's commands (the module started to ask
    /// it), or the host's help with the modules (from their descriptors, no module code run).
    struct Help: CommandWithoutModules, CommandInSession, Equatable {
        /// The command or module asked about; `nil`: the host.
        var topic: String? = nil

        static let declaration = Builtin(
            // A module's help starts the module, as a run does (a crash in its start is recorded
            // and skipped next time); the host's help plans only (see `configure`).
            id: "help", word: "help", usage: "help [COMMAND]", summary: ["Show this help, or a command's"], access: .writesData,
            describesEveryModule: true,
            make: { rest, _ throws(UsageError) in
                if let extra = rest.dropFirst().first {
                    throw UsageError(
                        key: "usage.help.extra", [extra], english: "'help' takes one command, found '\(extra)' too; see 'modhost --help'")
                }
                return Help(topic: rest.first)
            }, example: "modhost help bisect")

        /// The host's help reads the descriptors only: it changes nothing in the data folder.
        func configure(_ options: inout RuntimeOptions) {
            if topic == nil { options.readOnly = true }
        }

        /// A built-in command's help; else `nil`, to answer in a session.
        func run(_ context: CommandContext) -> Int32? {
            guard let topic, let builtin = CommandLineTable.command(named: topic), !builtin.hidden else { return nil }
            context.console.out(HelpText.renderBuiltin(builtin, strings: context.strings()))
            return ModhostCommandLine.exitSuccess
        }

        func run(in session: HostSession) -> Int32 {
            if let topic { return session.moduleHelp(topic) }
            let runtime = session.runtime
            runtime.planOnly()
            session.console.out(HelpText.render(modules: runtime.modules, strings: runtime.strings))
            return ModhostCommandLine.exitSuccess
        }
    }
}
