extension Builtins {
    /// `modhost check [--json]`: modules.json and every enabled library checked, each library
    /// loaded in a child process; nothing started.
    struct Check: CommandInSession, Equatable {
        var json = false

        static let declaration = Builtin(
            id: "check", word: "check", usage: "check [--json]",
            summary: ["Validate modules.json and every enabled library", "(loaded in a child process); start nothing"],
            options: [
                CommandLineTable.Option(
                    id: "check.json", names: ["--json"], value: nil, summary: ["The problems as one JSON document"],
                    apply: { parsed, _, _ in parsed.commandOptions.json = true })
            ],
            access: .readsOnly, checksDespiteProblems: true, describesEveryModule: true,
            make: { rest, options throws(UsageError) in
                try Builtin.noArgument("check", rest)
                return Check(json: options.json)
            }, example: "modhost --config /etc/modhost/modules.json check")

        func run(in session: HostSession) -> Int32 {
            CheckCommand(
                runtime: session.runtime, console: session.console, fileReading: session.fileReading,
                childOptions: session.arguments.childOptions()
            ).run(json: json)
        }
    }
}
