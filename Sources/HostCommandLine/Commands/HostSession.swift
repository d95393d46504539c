import CHostGuard
import Foundation
import HostLifecycle
import HostLoading
import HostModel
@_spi(Host) import ModuleKit

/// One run of a parsed command against a runtime, on the main actor (where the app and the
/// commands run).
@MainActor
struct HostSession {
    let runtime: HostRuntime
    let console: Console
    /// For `check`: the problems of `modules.json`, which it goes on despite.
    var fileReading: ModulesFileReading?
    /// Whether the app runs full screen (see ``FullScreenMode/wanted(plain:environment:)``).
    var fullScreen = false

    func run(_ arguments: CommandLineArguments) -> Int32 {
        Console.localize(with: runtime.strings)
        if arguments.help {
            if case .module(let name, nil, _) = arguments.command { return moduleHelp(name) }
            // From the descriptors: no module code runs for help.
            runtime.planOnly()
            console.out(HelpText.render(modules: runtime.modules, strings: runtime.strings))
            return ModhostCommandLine.exitSuccess
        }
        switch arguments.command {
        case .probe(let names):
            // Before any library: what a constructor starts ends with this probe, and it can
            // signal nothing outside it (the check, the app, the shell).
            ProcessCleanup.endDescendantsOnExit()
            defer { ProcessCleanup.run() }
            _ = modhost_scope_signals()
            HostRuntime.reportEnds()
            runtime.planOnly()
            runtime.probe(names, write: console.out)
            return ModhostCommandLine.exitSuccess
        case .bisect(let tried, let keep):
            // Each try chooses its modules itself (see Bisect.attempt): the run's choice is not
            // passed on as it was given.
            let options = arguments.childOptions(omitting: ["only", "enable", "disable"])
            return Bisect(runtime: runtime, console: console, options: options, keep: keep).run(
                tried)
        case .modules(let json, let timing):
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
        case .graph(let format):
            return graph(format)
        case .listCommands(let word, let command):
            // From the descriptors, as help: no module code runs, no library is opened.
            runtime.planOnly()
            let module = runtime.modules.first { ModuleName($0.name).commandWord == word && $0.state == .active }
            let declared = module?.commands ?? []
            if let command {
                for option in declared.first(where: { $0.name == command })?.options ?? [] { console.print(option) }
            } else {
                for declaration in declared { console.print(declaration.name) }
            }
            return ModhostCommandLine.exitSuccess
        case .listModules(let words):
            // From modules.json only: completion must never run module code, nor open a library.
            for entry in runtime.configuration.modules { console.print(words ? ModuleName(entry.name).commandWord : entry.name) }
            return ModhostCommandLine.exitSuccess
        case .new, .dev, .help, .completion, .manual:
            // Unreachable: ModhostCommandLine runs them before modules.json is read (or turns
            // `help` into --help), and with --help the help above answers.
            return ModhostCommandLine.exitSuccess
        case .check(let json):
            return CheckCommand(runtime: runtime, console: console, fileReading: fileReading, childOptions: arguments.childOptions()).run(
                json: json)
        case .routes:
            runtime.start()
            runtime.stop()
            console.out(RoutesReportFormat.table(runtime.routes, strings: runtime.strings))
            return ModhostCommandLine.exitSuccess
        case .run:
            // Check from the app sees the modules as this run does: crash records included
            // or not (a child otherwise decides its records itself).
            let recording = arguments.recordsCrashes ? [] : CommandLineTable.noCrashRecords.words()
            return runInteractive(childOptions: arguments.childOptions() + recording)
        case .module(let name, let command, let commandArguments):
            return runModuleCommand(module: name, command: command, arguments: commandArguments)
        }
    }

    /// Starts the modules and runs the app (Welcome or Home) until the person quits, input
    /// ends, or SIGINT/SIGTERM; then stops the modules.
    private func runInteractive(childOptions: [String]) -> Int32 {
        let locale = runtime.locale
        let check = CheckFromTheApp(
            options: childOptions, strings: runtime.strings, language: { locale.current },
            timeouts: runtime.configuration.modules.map(\.timeout))
        let ui = runtime.navigator.ui
        runtime.provideCheck {
            // From a screen (the main thread): the app says it is checking while it does.
            guard Thread.isMainThread else { return check.run() }
            let working = HostText("check.app.working", "Checking…").render(runtime.strings)
            return MainActor.assumeIsolated { ui.working(working) { check.run() } }
        }
        runtime.start()
        if fullScreen && FullScreenMode.enter(ui, strings: runtime.strings) {
            // Above the first screen, where they are seen.
            for problem in runtime.problems { ui.print(problem) }
        } else {
            for problem in runtime.problems { console.error(problem) }
        }
        AppShell(runtime: runtime).run()
        runtime.stop()
        return ModhostCommandLine.exitSuccess
    }

    private func runModuleCommand(module name: String, command: String?, arguments: [String]) -> Int32 {
        defer { runtime.stop() }
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

    /// `modhost <module> --help`: the module's commands (the module is started to ask it).
    private func moduleHelp(_ name: String) -> Int32 {
        defer { runtime.stop() }
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

    /// The route graph from the descriptors (no library opened), as text, DOT, or SVG drawn by
    /// Graphviz's `dot` when it is installed.
    private func graph(_ format: String) -> Int32 {
        runtime.planOnly()
        let graph = RouteGraph(modules: runtime.modules, strings: runtime.strings)
        switch format {
        case "dot":
            console.out(graph.dot)
            return ModhostCommandLine.exitSuccess
        case "svg":
            guard let dot = RouteGraph.graphvizDot() else {
                console.error(
                    HostText(
                        "graph.no.graphviz",
                        "'dot' (Graphviz) is not on PATH: install it ('apt-get install graphviz'), or print DOT with 'modhost graph --format dot'"
                    ))
                return ModhostCommandLine.exitFailure
            }
            let file = NSTemporaryDirectory() + "modhost-graph-\(getpid())-\(UUID().uuidString).dot"
            defer { unlink(file) }
            guard FileManager.default.createFile(atPath: file, contents: Data(graph.dot.utf8), attributes: [.posixPermissions: 0o600]),
                let pid = ChildCommand.spawn([dot, "-Tsvg", file], output: .inherited)
            else {
                console.error(HostText("graph.dot.failed", "could not run '%@'", [.plain(dot)]))
                return ModhostCommandLine.exitFailure
            }
            let status = ChildCommand.wait(pid)
            return status == 0 ? ModhostCommandLine.exitSuccess : ModhostCommandLine.exitFailure
        default:
            console.out(graph.text)
            return ModhostCommandLine.exitSuccess
        }
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

/// An exit status as an error, for paths that end a command early.
struct ExitStatus: Error {
    let code: Int32
}
