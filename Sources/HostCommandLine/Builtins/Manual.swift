import HostLifecycle
import HostModel
import ModuleKit

extension Builtins {
    /// `modhost manual`: the manual page, in roff.
    struct Manual: CommandWithoutModules, Equatable {
        static let declaration = Builtin(
            id: "manual", word: "manual", usage: "manual", summary: ["Print the manual page (roff), to install as modhost.1"],
            access: .readsOnly,
            make: { rest, _ throws(UsageError) in
                try Builtin.noArgument("manual", rest)
                return Manual()
            }, example: "modhost manual > ~/.local/share/man/man1/modhost.1")

        func run(_ context: CommandContext) -> Int32? {
            context.console.out(ManualPage.text(modules: Self.declaredCommands(context.arguments, environment: context.environment)))
            return ModhostCommandLine.exitSuccess
        }

        /// The commands each enabled module of this run's modules.json declares in its
        /// manifest, read from the descriptors as `--help` reads them (no library opened, no
        /// module code run). Nothing when the file or a module cannot be read.
        @MainActor
        static func declaredCommands(_ parsed: CommandLineArguments, environment: [String: String]) -> [(String, [DeclaredCommand])] {
            let configPath = ModhostCommandLine.configPath(parsed, environment: environment)
            guard
                let configuration = try? ModulesFileDecoder(defaultSearchPath: ModhostCommandLine.executableFolder()).read(
                    contentsOf: configPath
                ).configuration()
            else { return [] }
            var options = RuntimeOptions(
                only: nil, enable: [], disable: [], logLevel: .critical,
                dataFolder: ModhostCommandLine.dataFolder(parsed.dataFolder ?? RuntimeOptions.defaultDataFolder(environment: environment)))
            options.readOnly = true
            guard
                let runtime = try? HostRuntime(configuration: configuration, options: options, environment: environment, logSink: { _ in })
            else { return [] }
            runtime.planOnly()
            return runtime.modules.compactMap { module in module.commands.map { (ModuleName(module.name).commandWord, $0) } }
        }
    }
}
