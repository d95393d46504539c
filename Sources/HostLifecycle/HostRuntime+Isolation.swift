import Contracts
import Dispatch
import FoundationEssentials
import Glibc
import HostGraph
import HostIsolation
import HostLoading
import HostModel
import HostProcesses
import HostSandbox
@_spi(Host) import ModuleKit
import Synchronization

// Modules in a process of their own (`"isolation": "process"`, `--isolate`): started at the
// load phase as the running `modhost` in its module-host mode, given a proxy of each route they
// provide in this process's locator at the start phase, then started there; stopped with the
// others. A crash, exit, hang or broken link of such a process ends only the process: its
// routes answer "unavailable", named once.
extension HostRuntime {
    /// How long the host looks for a module's answer to its start or stop before sleeping: a
    /// wake-up of a sleeping thread costs more than a small module's start (a halted
    /// processor's, on a VM). The host waits then, its process works; kept short, since on a
    /// machine whose processors are busy elsewhere the look takes one the process could use.
    /// The process never looks that long for the host, whose threads would lose a processor.
    package static let startLook = Duration.microseconds(250)

    /// The word of the module-host mode the child runs (see `Builtins.ModuleHost`).
    package static let moduleHostCommand = "__module-host"
    /// Served to a module's process bound to that module (``SettingsServedToProcess``).
    static let settingsRouteName = "SettingsRoute"

    /// A module's process started and greeted at the load phase, its hello not yet read.
    struct PendingLaunch {
        let inspected: InspectedLibrary
        /// Its process, with the entry and the manifest it was started for.
        let spawn: PendingSpawn
    }

    /// Starts module `entry`'s process and says the host's hello; ``finishLaunch(_:)`` reads
    /// the process's, so that the host loads its other modules meanwhile.
    func beginLaunch(_ entry: ModuleEntry, _ inspected: InspectedLibrary, plan: Snapshot) -> Result<PendingLaunch, HostTextError> {
        let manifest: ModuleManifest
        switch IsolatedModule.manifest(of: inspected.descriptor) {
        case .success(let found): manifest = found
        case .failure(let problem): return .failure(HostTextError(problem.text))
        }
        let offered = offeredRoutes(manifest, plan: plan)
        return beginSpawn(entry, manifest: manifest, offered: offered, library: inspected).map {
            PendingLaunch(inspected: inspected, spawn: $0)
        }
    }

    /// The module of `pending` once its process said its hello; its routes are served over the link.
    func finishLaunch(_ pending: PendingLaunch) -> Result<IsolatedModule, HostTextError> {
        let (entry, manifest, offered) = (pending.spawn.entry, pending.spawn.manifest, pending.spawn.offered)
        let inspected = pending.inspected
        // Weak: the module, which keeps these closures, is kept by this runtime.
        let spawn: @Sendable (InspectedLibrary) -> Result<IsolatedModule.Launched, HostTextError> = { [weak self] library in
            guard let self else { return .failure(HostTextError(HostText("", "the host is ending", []))) }
            return spawnProcess(entry, manifest: manifest, offered: offered, library: library)
        }
        let first: IsolatedModule.Launched
        switch finishSpawn(pending.spawn) {
        case .success(let spawned): first = spawned
        case .failure(let error): return .failure(error)
        }
        let name = entry.name
        let module = IsolatedModule(
            name: name, manifest: manifest, library: inspected, first: first, language: locale,
            relaunch: { [logger] library in
                logger.warn("module '\(name)': starting its process again")
                switch spawn(library) {
                case .success(let launched):
                    // Started in the person's language (its hello says it), as it was before it failed.
                    do throws(RouteCallError) {
                        try RemoteObject.route(IsolatedModule.control, on: launched.link).call("start", RouteArguments())
                        return .success(launched)
                    } catch {
                        launched.link.close()
                        _ = launched.process.end(grace: .seconds(1))
                        return .failure(.unavailable(peer: "module '\(name)'", reason: "it did not start again: \(Self.reason(of: error))"))
                    }
                case .failure(let problem):
                    return .failure(.unavailable(peer: "module '\(name)'", reason: problem.text.description))
                }
            },
            stayingOff: { [weak self] count in
                // Skipped from the next start until `--retry`, as a module that crashed the host.
                guard let self, options.recordsCrashes && !options.readOnly else { return }
                // The library it runs now (a live restart may have replaced the first).
                let current = read { $0.inspected[name] } ?? inspected
                let record = CrashRecord.processFailures(count, module: name, library: current.path, identity: current.identity)
                if let problem = CrashRecords.write(record, in: options.dataFolder) {
                    logger.warn("module '\(name)': its failures are not recorded: \(problem)")
                } else {
                    logger.error("module '\(name)' is skipped from the next start; 'modhost --retry \(name)' tries it again")
                }
            })
        logger.debug("module '\(name)': running in process \(module.pid)")
        return .success(module)
    }

    /// Starts the process of each isolated module this run may start that the command line
    /// has not started yet (see EarlyProcesses.swift), before the plan's checks.
    func startProcessesEarly() {
        for (name, pid) in Self.startProcessesEarly(for: configuration, options: options) {
            logger.debug("module '\(name)': its process (\(pid)) started before the checks")
        }
    }

    /// The app's relay of presented screens; `nil` outside the app (a command presents none).
    var screenRelay: (any ScreenRelaying)? { isolatedScreens.withLock { $0?.relay } }

    struct NoScreens: Error, CustomStringConvertible {
        var description: String { "screens are shown only in the app" }
    }

    /// The open file of module `name`'s library, as it was checked (after planning).
    package func checkedLibrary(of name: String) -> Int32? {
        read { $0.inspected[name]?.file.descriptor }
    }

    /// Asks now, for the load of module `name`'s checked library later, what it needs that lies
    /// beside it (see `TrustedLibrary.prepareLoad(of:)`).
    package func prepareLibraryLoad(of name: String) {
        if let file = read({ $0.inspected[name]?.file }) { TrustedLibrary.prepareLoad(of: file) }
    }

    /// The path module `name`'s library was checked at.
    package func checkedLibraryPath(of name: String) -> String? {
        read { $0.inspected[name]?.path }
    }

    /// What module `name` may reach in a sandbox of its own: what its manifest declares, less
    /// what its entry in modules.json denies.
    package func capabilities(of name: String) -> ModuleCapabilities {
        let declared = read { $0.inspected[name]?.descriptor.capabilities } ?? ModuleCapabilities()
        return declared.narrowed(denying: configuration.entry(named: name)?.deny ?? [])
    }

    /// Module `name` when it runs in a process of its own.
    package func isolatedModule(named name: String) -> IsolatedModule? {
        read { $0.isolated[name] }
    }

    /// Registers a proxy of each route `isolated` provides, then starts it in its process.
    /// - Returns: why it did not start, or `nil`.
    func startIsolated(_ isolated: IsolatedModule, context: ModuleContext, timings: inout ModuleTiming) -> HostText? {
        do {
            let mark = ModuleTiming.Mark.now(measuringMemory: false)
            defer { timings.add(\.register, since: mark) }
            let registry = ModuleRegistry(context: context, locator: locator)
            for route in isolated.manifest.provides {
                try RouteBridge.all[route.name]?.registerProxy(registry, .route(route.name, at: isolated.endpoint))
            }
        } catch {
            return HostText("reason.threw.register", "threw in register: %@", [.plain("\(error)")])
        }
        let mark = ModuleTiming.Mark.now(measuringMemory: false)
        defer { timings.add(\.start, since: mark) }
        // Its start, like every call after it, in the person's language.
        isolated.tellLanguage(on: isolated.link)
        // A module's start takes a fraction of a millisecond: its answer is looked for, not slept for.
        isolated.link.lookForNextFrame(Self.startLook)
        do throws(RouteCallError) {
            try RemoteObject.route(IsolatedModule.control, on: isolated.link).call("start", RouteArguments())
            isolated.takeLanguage()
            return nil
        } catch .thrown(_, let message) {
            return HostText("reason.isolated.start", "did not start in its process: %@", [.plain(message)])
        } catch {
            return HostText("reason.isolated.gone", "its process failed in start: %@", [.plain(Self.reason(of: error))])
        }
    }

    /// Stops `isolated` in its process, then ends the process.
    func stopIsolated(_ isolated: IsolatedModule) {
        for calls in isolated.routeCalls {
            logger.info(
                "module '\(isolated.name)': \(calls.member) called \(calls.count) times, p50 \(Self.milliseconds(calls.p50)), "
                    + "p99 \(Self.milliseconds(calls.p99))")
        }
        // A link that failed was named as it failed; only a stop that ends badly is told here.
        guard isolated.link.failed == nil else {
            _ = isolated.ended(grace: .seconds(1))
            return
        }
        // Its process ends after its answer; how it ended its wait status tells (below), and a
        // stop that fails before its answer the link tells as it fails.
        isolated.link.lookForNextFrame(Self.startLook)
        try? isolated.link.lastCall(IsolatedModule.control, "stop")
        isolated.link.close()
        if let end = isolated.ended(), end != .exited(0) {
            logger.warn("module '\(isolated.name)': its process \(end.description) when it was stopped")
        }
        if let audit = sandboxAudit(of: isolated.name) {
            audit.waitUntilDone()
            for line in audit.summary() { logger.warn(line) }
        }
    }

    /// The audit of module `name`'s sandbox when `--sandbox-audit` names it, made once.
    func sandboxAudit(of name: String) -> SandboxAudit? {
        guard options.sandboxAudit.containsModule(name) else { return nil }
        return sandboxAudits.withLock { audits in
            if let known = audits[name] { return known }
            let made = SandboxAudit(module: name)
            audits[name] = made
            return made
        }
    }

    static func milliseconds(_ duration: Duration) -> String {
        FixedDecimals.text(ModuleTiming.milliseconds(duration), places: 3) + " ms"
    }

    static func reason(of error: RouteCallError) -> String {
        if case .unavailable(_, let reason) = error { return reason }
        return error.description
    }

    static func startProblem(_ error: ModuleProcess.StartError) -> HostText {
        switch error {
        case .notStarted(let why):
            HostText("reason.isolated.spawn", "its process could not be started: %@", [.plain(why)])
        case .link(let wire):
            HostText("reason.isolated.link", "its process did not greet the host: %@", [.plain(wire.description)])
        case .failed(let reason, let end):
            HostText(
                "reason.isolated.failed", "its process ended before it greeted the host: %@",
                [.plain(reason ?? end?.description ?? "no reason given")])
        case .mismatch(let why):
            HostText("reason.isolated.mismatch", "its process does not agree with the host: %@", [.plain(why)])
        }
    }
}

/// A host text as an error, for results.
struct HostTextError: Error {
    let text: HostText
    init(_ text: HostText) { self.text = text }
}
