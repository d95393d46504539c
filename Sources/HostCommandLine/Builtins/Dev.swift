extension Builtins {
    /// `modhost dev PATH [-- ARGS…]`: rebuilds a module package on change and runs `ARGS`.
    struct Dev: CommandWithoutModules, Equatable {
        let package: String
        var arguments: [String] = []

        static let declaration = Builtin(
            id: "dev", word: "dev", usage: "dev PATH [-- ARGS...]",
            summary: ["Rebuild the module package at PATH on every change", "and run 'modhost ARGS' (or the app) with it"],
            // Its children are runs of their own, which decide what they write.
            access: .readsOnly,
            make: { rest, _ throws(UsageError) in
                guard let package = rest.first else {
                    throw UsageError(key: "usage.dev", english: "'dev' needs the module package's folder: modhost dev PATH [-- ARGS…]")
                }
                return Dev(package: package, arguments: Array(rest.dropFirst()))
            }, example: "modhost dev ~/src/Notes -- notes hello")

        func run(_ context: CommandContext) -> Int32? {
            _ = context.strings()
            return DevCommand(
                console: context.console, package: ExtraModules.absolute(package), hostOptions: context.arguments.childOptions(),
                arguments: arguments
            ).run()
        }
    }
}
