extension Builtins {
    /// `modhost new NAME [--output DIR] [--kit DIR] [--route]`: a new module package.
    struct New: CommandWithoutModules, Equatable {
        let name: String
        var output: String? = nil
        var kit: String? = nil
        var route = false

        static let declaration = Builtin(
            id: "new", word: "new", usage: "new NAME",
            summary: ["Write a module package built against this host's kit", "(into ./NAME, or --output DIR; --kit DIR; --route)"],
            options: [
                CommandLineTable.Option(
                    id: "new.output", names: ["--output"], value: "DIR", summary: ["Where to write the package"],
                    apply: { parsed, value, name throws(UsageError) in
                        parsed.commandOptions.output = try CommandLineArguments.nonEmpty(value, for: name)
                    }),
                CommandLineTable.Option(
                    id: "new.kit", names: ["--kit"], value: "DIR", summary: ["The kit package to build against"],
                    apply: { parsed, value, name throws(UsageError) in
                        parsed.commandOptions.kit = try CommandLineArguments.nonEmpty(value, for: name)
                    }),
                CommandLineTable.Option(
                    id: "new.route", names: ["--route"], value: nil, summary: ["Also write a contracts package with a route"],
                    apply: { parsed, _, _ in parsed.commandOptions.route = true }),
            ],
            // It writes the new package, nowhere near the data folder.
            access: .readsOnly,
            make: { rest, options throws(UsageError) in
                guard let name = rest.first else {
                    throw UsageError(key: "usage.new", english: "'new' needs the module's name: modhost new NAME [--output DIR]")
                }
                if let extra = rest.dropFirst().first {
                    throw UsageError(
                        key: "usage.new.extra", [extra], english: "'new' takes one name, found '\(extra)' too; see 'modhost --help'")
                }
                return New(name: name, output: options.output, kit: options.kit, route: options.route)
            }, example: "modhost new Notes --output ~/src/Notes")

        func run(_ context: CommandContext) -> Int32? {
            _ = context.strings()
            return NewModuleCommand(console: context.console).run(name: name, output: output, kit: kit, route: route)
        }
    }
}
