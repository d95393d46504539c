import CHostGuard
import FoundationEssentials
import Glibc
import HostApp
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

/// `modhost`: parses the command line, runs the command, and returns the exit code
/// (0 success, 1 failure, 2 bad usage). Everything the executable does happens here.
public enum ModhostCommandLine {
    public static let exitSuccess: Int32 = 0
    public static let exitFailure: Int32 = 1
    public static let exitUsage: Int32 = 2

    /// The host's strings, read only when a message needs them before the runtime exists (a
    /// run that goes well does not pay for them here); the console's labels follow them.
    static func hostStrings(_ environment: [String: String]) -> ModuleStrings? {
        let strings = try? ModuleStrings.load(
            module: HostRuntime.hostName, from: HostRuntime.hostStringsFolder, locale: LocaleSetting(environment: environment))
        if let strings { Console.localize(with: strings) }
        return strings
    }

    /// Runs `modhost` with `arguments` (without the program name), on the main actor.
    @MainActor
    public static func main(
        arguments: [String],
        environment: [String: String] = ProcessEnvironment.variables,
        console: Console = .standard
    ) -> Int32 {
        var parsed: CommandLineArguments
        do {
            parsed = try CommandLineArguments.parse(arguments)
        } catch {
            console.error(error.message(in: hostStrings(environment)))
            return exitUsage
        }
        if let mismatch = kitMismatch() {
            _ = hostStrings(environment)
            console.error(mismatch)
            return exitFailure
        }
        if parsed.version {
            console.print(
                "modhost \(HostRuntime.version) (module ABI \(ModuleKitABI.version), ModuleKit SDK \(ModuleKitABI.sdkVersion), \(ModuleKitABI.compiler))"
            )
            return exitSuccess
        }
        // A command that needs no modules runs before modules.json is read.
        if let command = parsed.command.withoutModules,
            let status = command.run(CommandContext(arguments: parsed, environment: environment, console: console))
        {
            return status
        }
        guard let command = parsed.command.inSession else {
            // A declaration whose command has neither handler: a test holds every one to one.
            console.error(HostText("", "'%@' has no handler", [.plain(parsed.declaration.usage)]))
            return exitFailure
        }
        let declaration = parsed.declaration
        let options = runtimeOptions(parsed, declaration: declaration, command: command, environment: environment)
        // A module's process starts as soon as this run is known to need it (see
        // EarlyProcesses.swift); one the run did not take is ended as it ends.
        defer { options.earlyProcesses.endUntaken() }
        if declaration.startsModules { HostRuntime.startProcessesEarly(named: options.isolate, options: options) }
        let configPath = Self.configPath(parsed, environment: environment)
        let reading = ModulesFileDecoder(defaultSearchPath: executableFolder()).read(contentsOf: configPath)
        // `check` (and its child) go on with what can still be checked, to tell every problem
        // at once; everything else stops at the file's problems.
        let checksDespiteProblems = declaration.checksDespiteProblems
        let configuration: HostConfiguration
        if checksDespiteProblems, let checkable = reading.checkable {
            configuration = checkable
        } else {
            do throws(ModulesFileError) {
                configuration = try reading.configuration()
            } catch {
                if command is Builtins.Help {
                    console.out(HelpText.render(modules: [], strings: hostStrings(environment)))
                    console.warning(
                        HostText(
                            "help.modules.unlisted", "module commands are not listed: '%@': %@",
                            [.plain(configPath), .text(error.texts.first ?? .plain(""))]))
                    return exitSuccess
                }
                if let check = command as? Builtins.Check, check.json {
                    console.out(CheckReport.json(fileProblems: reading, strings: hostStrings(environment)))
                    return exitFailure
                }
                let strings = hostStrings(environment)
                for problem in error.texts { console.error(CheckReport.inFile(configPath, problem).render(strings)) }
                return exitFailure
            }
        }
        // Typed throws, not `Result`: a `Result<_, UsageError>` asks the runtime whether
        // `UsageError` is an `Error`, a scan of every conformance record (docs/PERFORMANCE.md).
        let configurationWithExtras: HostConfiguration
        do throws(UsageError) {
            configurationWithExtras = try ExtraModules.add(parsed.extraModules, to: configuration)
        } catch {
            console.error(error.message(in: hostStrings(environment)))
            return exitUsage
        }
        if declaration.startsModules { HostRuntime.startProcessesEarly(for: configurationWithExtras, options: options) }
        let runtime: HostRuntime
        do {
            runtime = try HostRuntime(
                configuration: configurationWithExtras, options: options, environment: environment, logSink: console.err)
        } catch {
            console.error(UsageError(error.text).message(in: hostStrings(environment)))
            return exitUsage
        }
        SignalTrap.runtime.withLock { $0 = runtime }
        let status = HostSession(
            runtime: runtime, console: console, fileReading: checksDespiteProblems ? reading : nil,
            fullScreen: command is Builtins.App && FullScreenMode.wanted(plain: parsed.plain, environment: environment),
            arguments: parsed
        ).run(command)
        runtime.moduleGuard.finish()
        return status
    }

    /// The run's options: the command line's, then what the command itself needs.
    private static func runtimeOptions(
        _ parsed: CommandLineArguments, declaration: Builtin, command: any CommandInSession, environment: [String: String]
    ) -> RuntimeOptions {
        var options = RuntimeOptions(
            only: parsed.only, enable: parsed.enable, disable: parsed.disable, logLevel: parsed.logLevel,
            dataFolder: Self.dataFolder(parsed.dataFolder ?? RuntimeOptions.defaultDataFolder(environment: environment)))
        options.retry = parsed.retry
        options.extraModules = parsed.extraModules.map(ExtraModules.absolute)
        options.isolate = parsed.isolate + parsed.sandboxAudit
        options.sandboxAudit = parsed.sandboxAudit
        // A module's own process sees the same file, data and libraries, and chooses itself; how
        // it ends is the host's to tell (from its wait status), so it records no crash itself.
        options.moduleHostOptions =
            parsed.childOptions(omitting: ["only", "enable", "disable", "isolate"]) + CommandLineTable.noCrashRecords.words()
        options.recordsCrashes = parsed.recordsCrashes
        // As the command's declaration says: what it may write, what its report describes (a
        // disabled module from its descriptor too).
        options.readOnly = declaration.access == .readsOnly
        options.describesEveryModule = declaration.describesEveryModule
        command.configure(&options)
        return options
    }

    /// Whether `arguments` run a module's own process (`… __module-host NAME`, as the host
    /// starts it), which installs the guard itself once it is in its sandbox.
    public static func isModuleHost(_ arguments: [String]) -> Bool {
        arguments.count >= 2 && arguments[arguments.count - 2] == HostRuntime.moduleHostCommand
    }

    /// Installs the guard around module code (fatal signals, exit, hangs, SIGINT/SIGTERM, the
    /// terminal). Only the `modhost` executable calls it: tests that run `main` in-process keep
    /// their own signal handling.
    public static func installGuard() {
        SignalTrap.install()
        // The binary children run, before anything could replace it on disk; after the guard
        // gave a closed 0, 1 or 2 /dev/null, so that its descriptor never takes their number.
        RunningExecutable.prepare()
    }

    /// Ends the executable: flushes what modules printed (reporting a failed write) and exits
    /// as the host, so the guard does not take the exit for a module's.
    public static func exit(_ status: Int32) -> Never {
        StandardOutput.flush()
        // Lines held while a screen was full (see FullScreenMode) are not lost with the process.
        StandardError.writeHeld()
        modhost_guard_host_exiting()
        Glibc.exit(status)
    }

    /// The host checks itself as it checks modules: the `libModuleKit.so` it loaded must be of
    /// the SDK major modhost was compiled against, at the same minor or a later one (a kit
    /// library left from another build would otherwise make the host misbehave, not fail).
    static func kitMismatch() -> HostText? {
        let compiled = ModuleKitABI.compiledSDKVersion.description
        if let built = SDKVersion(compiled), let loaded = SDKVersion(ModuleKitABI.sdkVersion),
            SDKVersion.fit(built: built, held: loaded) == .fits
        {
            return nil
        }
        return HostText(
            "host.kit.mismatch",
            "modhost was built against ModuleKit SDK %@, but the loaded libModuleKit.so is SDK %@; rebuild with 'swift build' (remove .build if the mismatch stays)",
            [.plain(compiled), .plain(ModuleKitABI.sdkVersion)])
    }

    /// The modules.json this run reads: `--config`, else `MODHOST_CONFIG`, else ./modules.json.
    static func configPath(_ parsed: CommandLineArguments, environment: [String: String]) -> String {
        parsed.configPath ?? environment["MODHOST_CONFIG"].flatMap { $0.isEmpty ? nil : $0 } ?? "modules.json"
    }

    /// The data folder resolved once (see `ModuleStorage.resolveDataFolder`), or as given when
    /// it cannot be: then opening it at start says why, and modules that store data fail.
    static func dataFolder(_ given: String) -> String {
        (try? ModuleStorage.resolveDataFolder(given)) ?? given
    }

    /// The folder of the running executable: where `lib<Name>.so` is looked up by default.
    static func executableFolder() -> String {
        ProcessLocation.executableFolder
    }
}
