extension Builtins {
    /// `modhost bisect [--keep NAME] -- ARGS…`: the modules with which `modhost ARGS…` fails.
    struct Bisect: CommandInSession, Equatable {
        let arguments: [String]
        var keep: [String] = []

        static let declaration = Builtin(
            id: "bisect", word: "bisect", usage: "bisect -- ARGS...",
            summary: ["Find the modules that make 'modhost ARGS' fail", "(--keep NAME: keep a module in every try)"],
            options: [
                CommandLineTable.Option(
                    id: "bisect.keep", names: ["--keep"], value: "NAME", summary: ["Keep this module in every try (repeatable, or A,B)"],
                    apply: { parsed, value, name throws(UsageError) in
                        parsed.commandOptions.keep += try CommandLineArguments.names(value, for: name)
                    })
            ],
            // Each try is a child that records no crash; the bisecting run itself changes nothing.
            access: .readsOnly,
            make: { rest, options throws(UsageError) in
                guard !rest.isEmpty else {
                    throw UsageError(key: "usage.bisect", english: "'bisect' needs the command to try: modhost bisect -- ARGS…")
                }
                return Bisect(arguments: rest, keep: options.keep)
            }, example: "modhost bisect --keep Settings -- geo list")

        func run(in session: HostSession) -> Int32 {
            // Each try chooses its modules itself (see ModuleBisection.attempt): the run's
            // choice is not passed on as it was given.
            let options = session.arguments.childOptions(omitting: ["only", "enable", "disable"])
            return ModuleBisection(runtime: session.runtime, console: session.console, options: options, keep: keep).run(arguments)
        }
    }
}
