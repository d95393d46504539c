import Contracts
import HostIsolation
import HostLifecycle
import HostLoading
import HostModel
@_spi(Host) import ModuleKit

extension Builtins {
    /// `modhost <module> <command> ARGS…`: a command an active module contributes (`command`
    /// is `nil` when only the module is named). Its words after the module's pass through
    /// untouched.
    struct OfModule: CommandInSession, Equatable {
        let module: String
        var command: String? = nil
        var arguments: [String] = []

        static let declaration = Builtin(
            id: "module.command", usage: "<module> <command> ...", summary: ["Run a command an active module contributes"],
            access: .writesData, startsModules: true,
            make: { rest, _ in OfModule(module: rest.first ?? "", command: rest.dropFirst().first, arguments: Array(rest.dropFirst(2))) })

        func run(in session: HostSession) -> Int32 {
            session.runModuleCommand(module: module, command: command, arguments: arguments)
        }
    }

    /// `modhost <module> --help`: documented as a row of its own; parsed as ``Help``.
    enum ModuleHelp: HostCommand {
        static let declaration = Builtin(
            id: "module.help", usage: "<module> --help", summary: ["List a module's commands"], access: .writesData,
            describesEveryModule: true, startsModules: true, make: { rest, _ in Help(topic: rest.first) })
    }
}

extension HostSession {
    func runModuleCommand(module name: String, command: String?, arguments: [String]) -> Int32 {
        defer { runtime.stop() }
        if let entry = runtime.configuration.entry(named: name), entry.isolation == .process {
            return runIsolatedCommand(entry, command: command, arguments: arguments)
        }
        let entry: ModuleEntry
        let commands: [ModuleCommand]
        switch startedCommands(of: name) {
        case .failure(let status): return status.code
        case .success(let found): (entry, commands) = found
        }
        let label = ModuleName(entry.name).commandWord
        guard let command else {
            console.error(runtime.strings.format(.commandNeeded, label, Self.list(commands), label))
            return ModhostCommandLine.exitUsage
        }
        guard let chosen = commands.first(where: { $0.name == command }) else {
            let (typed, list) = (Escaped(command).description, Self.list(commands))
            let near = nearest(to: command, among: commands.map(\.name))
            console.error(
                near.map { runtime.strings.format(.commandUnknownSuggest, entry.name, typed, $0, list) }
                    ?? runtime.strings.format(.commandUnknown, entry.name, typed, list))
            return ModhostCommandLine.exitUsage
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            console.out(HelpText.renderCommand(entry.name, chosen, strings: runtime.strings))
            return ModhostCommandLine.exitSuccess
        }
        do {
            try runtime.guarded(entry.name, .command) { try chosen.run(CommandInvocation(arguments: arguments)) }
            return ModhostCommandLine.exitSuccess
        } catch let error as any ModuleError {
            // In the module's own strings, or the host's for the kit's usage messages: the
            // person's language either way.
            let usage = error as? CommandUsageError
            let message =
                usage?.key.map { runtime.strings.format(StringKey($0), arguments: usage?.arguments ?? []) }
                ?? error.message(runtime.strings(of: entry.name))
            console.error("\(label) \(chosen.name): \(message)")
            if error is CommandUsageError {
                console.err("\(runtime.strings[.helpUsage]) modhost \(label) \(chosen.usage)\n")
                console.err(runtime.strings.format(.helpSeeCommand, "modhost \(label) \(chosen.name) --help") + "\n")
            }
            return error.exitCode
        } catch {
            console.error("\(label) \(chosen.name): \(error)")
            return ModhostCommandLine.exitFailure
        }
    }

    /// What asks a module's own process for the module's help, in place of a command.
    static let helpWord = "--help"

    /// A command of a module in a process of its own: run there, on this terminal, while the
    /// host waits.
    private func runIsolatedCommand(_ entry: ModuleEntry, command: String?, arguments: [String]) -> Int32 {
        runtime.start()
        guard let isolated = runtime.isolatedModule(named: entry.name),
            runtime.modules.first(where: { $0.name == entry.name })?.state == .active
        else {
            if let report = runtime.modules.first(where: { $0.name == entry.name }) {
                console.error(runtime.strings.format(.moduleInactive, entry.name, whyInactive(report)))
            }
            return ModhostCommandLine.exitFailure
        }
        do throws(RouteCallError) {
            return try isolated.runCommand((command.map { [$0] } ?? []) + arguments)
        } catch {
            console.error("\(ModuleName(entry.name).commandWord) \(command ?? ""): \(error)")
            return ModhostCommandLine.exitFailure
        }
    }

    /// `modhost <module> --help`: the module's commands (the module is started to ask it).
    func moduleHelp(_ name: String) -> Int32 {
        defer { runtime.stop() }
        // A module in a process of its own lists its commands from there.
        if let entry = runtime.configuration.entry(named: name), entry.isolation == .process {
            return runIsolatedCommand(entry, command: Self.helpWord, arguments: [])
        }
        switch startedCommands(of: name) {
        case .failure(let status): return status.code
        case .success(let (entry, commands)):
            console.out(HelpText.renderModule(entry.name, commands: commands, strings: runtime.strings))
            warnIfManifestDiffers(entry.name, commands)
            return ModhostCommandLine.exitSuccess
        }
    }

    /// A module whose manifest declares other commands (or options) than it has: completion
    /// follows the manifest, so its author is told here, where they look at its commands.
    private func warnIfManifestDiffers(_ name: String, _ commands: [ModuleCommand]) {
        guard let declared = runtime.modules.first(where: { $0.name == name })?.commands else { return }
        let actual = commands.map { DeclaredCommand(name: $0.name, options: $0.options.map(\.name)) }
        let describe = { (list: [DeclaredCommand]) in
            list.map { ([$0.name] + $0.options.sorted()).joined(separator: " ") }.sorted().joined(separator: "; ")
        }
        guard describe(declared) != describe(actual) else { return }
        console.warning(
            HostText(
                "manifest.commands.differ",
                "module '%@': its module.manifest declares the commands '%@', but it has '%@'; completion follows the manifest: update its 'command' lines",
                [.plain(name), .plain(describe(declared)), .plain(describe(actual))]))
    }

    /// Starts the modules and returns the entry and commands of module `name`; when there is
    /// no such module or it is not active, says why and returns the exit status.
    private func startedCommands(of name: String) -> Result<(ModuleEntry, [ModuleCommand]), ExitStatus> {
        guard let entry = runtime.configuration.entry(named: name) else {
            let known = CommandLineTable.commandWords + runtime.configuration.modules.map { ModuleName($0.name).commandWord }
            let near = nearest(to: name, among: known)
            console.error(
                near.map { runtime.strings.format(.hostCommandUnknownSuggest, Escaped(name).description, $0) }
                    ?? runtime.strings.format(.hostCommandUnknown, Escaped(name).description))
            return .failure(ExitStatus(code: ModhostCommandLine.exitUsage))
        }
        runtime.start()
        if let report = runtime.modules.first(where: { $0.name == entry.name }), report.state != .active {
            console.error(runtime.strings.format(.moduleInactive, entry.name, whyInactive(report)))
            return .failure(ExitStatus(code: ModhostCommandLine.exitFailure))
        }
        return .success((entry, runtime.commands.first { $0.module == entry.name }?.commands ?? []))
    }

    /// Why a module is not active, in the person's language (the reason itself as the host
    /// recorded it).
    private func whyInactive(_ report: ModuleReport) -> String {
        let reason = report.reasonText?.render(runtime.strings) ?? runtime.strings[.reasonNone]
        switch report.outcome {
        case .disabled: return runtime.strings.format(.inactiveDisabled, reason, report.name)
        case .failed: return runtime.strings.format(.inactiveFailed, reason)
        case .skipped: return runtime.strings.format(.inactiveSkipped, reason)
        case .active: return reason
        }
    }

    private static func list(_ commands: [ModuleCommand]) -> String {
        commands.isEmpty ? "(no commands)" : commands.map { "'\($0.name)'" }.joined(separator: ", ")
    }
}
