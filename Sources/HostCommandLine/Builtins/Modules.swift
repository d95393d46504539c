import HostLifecycle

extension Builtins {
    /// `modhost modules [--json] [--timing]`: each module with its state, reason and routes.
    struct Modules: CommandInSession, Equatable {
        var json = false
        var timing = false

        static let declaration = Builtin(
            id: "modules", word: "modules", usage: "modules [--json]",
            summary: ["List each module with its state, reason and routes", "(--timing: what each cost the start)"],
            options: [
                CommandLineTable.Option(
                    id: "modules.json", names: ["--json"], value: nil, summary: ["The list as one JSON document"],
                    apply: { parsed, _, _ in parsed.commandOptions.json = true }),
                CommandLineTable.Option(
                    id: "modules.timing", names: ["--timing"], value: nil,
                    summary: ["The time each module took in each phase, its share of the start, and the memory it added"],
                    apply: { parsed, _, _ in parsed.commandOptions.timing = true }),
            ],
            access: .writesData, describesEveryModule: true, startsModules: true,
            make: { rest, options throws(UsageError) in
                try Builtin.noArgument("modules", rest)
                return Modules(json: options.json, timing: options.timing)
            }, example: "modhost --disable Photos modules --json")

        func configure(_ options: inout RuntimeOptions) {
            options.hashLibraries = json
            options.measuresMemory = timing
        }

        func run(in session: HostSession) -> Int32 {
            let (runtime, console) = (session.runtime, session.console)
            // Started, so that a module failing in start shows as failed; `check` starts nothing.
            runtime.start()
            runtime.stop()
            if json {
                console.out(ModulesReportFormat.json(runtime, timing: timing))
            } else if timing {
                console.out(ModulesReportFormat.timing(runtime.modules, whole: runtime.elapsed, strings: runtime.strings))
            } else {
                console.out(ModulesReportFormat.table(runtime.modules, strings: runtime.strings, width: StandardOutput.terminalColumns))
            }
            return ModhostCommandLine.exitSuccess
        }
    }
}
