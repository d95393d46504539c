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
    /// How long the host looks for a module's answer to its start, and its process for the
    /// host's first call after its hello, before sleeping: each wake-up of a sleeping thread
    /// costs more than most starts (a halted processor's, on a VM).
    package static let startLook = Duration.milliseconds(1)

    /// The word of the module-host mode the child runs (see `Builtins.ModuleHost`).
    package static let moduleHostCommand = "__module-host"
    /// Served to a module's process bound to that module (``SettingsServedToProcess``).
    static let settingsRouteName = "SettingsRoute"

    /// Starts module `entry`'s process and greets it; its routes are served over the link.
    func launch(_ entry: ModuleEntry, _ inspected: InspectedLibrary, plan: Snapshot) -> Result<IsolatedModule, HostTextError> {
        let manifest: ModuleManifest
        switch IsolatedModule.manifest(of: inspected.descriptor) {
        case .success(let found): manifest = found
        case .failure(let problem): return .failure(HostTextError(problem.text))
        }
        let offered = offeredRoutes(manifest, plan: plan)
        // Weak: the module, which keeps these closures, is kept by this runtime.
        let spawn: @Sendable (TrustedFile) -> Result<IsolatedModule.Launched, HostTextError> = { [weak self] library in
            guard let self else { return .failure(HostTextError(HostText("", "the host is ending", []))) }
            return spawnProcess(entry, manifest: manifest, offered: offered, library: library.descriptor)
        }
        let first: IsolatedModule.Launched
        switch spawn(inspected.file) {
        case .success(let spawned): first = spawned
        case .failure(let error): return .failure(error)
        }
        let name = entry.name
        let module = IsolatedModule(
            name: name, manifest: manifest, library: inspected.file, first: first, language: locale,
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

    /// One process of module `entry`: started, greeted (in the person's language), and its link made.
    func spawnProcess(
        _ entry: ModuleEntry, manifest: ModuleManifest, offered: [String], library: Int32
    ) -> Result<IsolatedModule.Launched, HostTextError> {
        let process: ModuleProcess
        var told: String?
        ProcessScope.keepFromModules()
        StrayProcesses.adopt()
        do throws(ModuleProcess.StartError) {
            if let early = options.earlyProcesses.take(entry.name) {
                early.afterEnd = afterEnd(of: entry)
                process = early
            } else {
                process = try startProcess(of: entry)
            }
            let audit = sandboxAudit(of: entry.name)
            // Its filter and its Landlock ruleset, made here while it starts (see HostRuntime+Sandbox.swift).
            let capabilities = capabilities(of: entry.name)
            let program =
                entry.sandbox == .off || audit != nil ? nil : Sandbox.filterProgram(network: capabilities.network, exec: capabilities.exec)
            defer { if let program { close(program) } }
            let ruleset = program == nil ? nil : preparedRuleset(for: entry, audit: audit != nil)
            defer { if let ruleset { close(ruleset.descriptor) } }
            var passed: [(name: String, descriptor: Int32)] = [(Hello.library, library)]
            if let program { passed.append((Hello.filter, program)) }
            if let ruleset { passed.append((Hello.ruleset, ruleset.descriptor)) }
            let greeting = Hello(
                hostVersion: Self.version, sdkVersion: ModuleKitABI.sdkVersion, contracts: [("Contracts", ModuleKitABI.sdkVersion)],
                passes: passed.map(\.name), routes: offered, language: locale.current)
            try process.greet(greeting, passing: passed.map(\.descriptor), helloLimit: entry.timeout) {
                [logger] refusals, granted, pid in
                if let audit {
                    audit.watch(refusals, granted: granted)
                } else {
                    // What a ruleset made here grants is known here; else the process says.
                    SandboxRefusals.watch(refusals, module: entry.name, pid: pid, granted: ruleset?.granted ?? granted) { line in
                        logger.warn(line)
                    }
                }
            }
            told = greeting.language
        } catch {
            return .failure(HostTextError(Self.startProblem(error)))
        }
        let resolver = locator.resolver(for: manifest, access: access)
        var routes: [String: @Sendable () throws -> any RouteDispatching] = [:]
        let name = entry.name
        for route in offered {
            guard let bridge = RouteBridge.all[route] else { continue }
            // Weak, as `spawn` above: the link that keeps these is kept by this runtime.
            routes[route] = { [weak self] in
                let dispatcher: any RouteDispatching
                if route == Self.settingsRouteName, let self {
                    dispatcher = SettingsRouteDispatcher(
                        target: SettingsServedToProcess(
                            module: name, settings: try resolver.resolve((any SettingsRoute).self), kept: isolatedSettings, logger: logger))
                } else {
                    dispatcher = try bridge.dispatcher(resolver)
                }
                return self?.screenRelay?.relaying(dispatcher) ?? dispatcher
            }
        }
        routes[IsolatedModule.screens] = { [weak self] in
            guard let relay = self?.screenRelay else { throw NoScreens() }
            return relay
        }
        // Only the module that chooses the person's language may tell the host one.
        if IsolatedModule.choosesLanguage(manifest) {
            routes[IsolatedModule.language] = { [locale] in PersonsLanguage(locale: locale) }
        }
        let pid = process.pid
        let owned = OwnedProcess(process)
        let link = RouteLink(
            channel: process.channel, peer: "module '\(name)'", routes: { [routes] in routes[$0] }, callLimit: entry.timeout,
            cpuBudget: entry.sandbox == .off ? nil : Self.cpuBudget(entry.limits, pid: pid),
            onFailure: { [logger] error in
                // This process's end, not the module's current one (a restart's may differ).
                let end = owned.end(grace: .seconds(1))
                let how = end.map { "; its process (\(pid)) \($0.description)" } ?? ""
                logger.error("module '\(name)' is unavailable: \(Self.reason(of: error))\(how)")
            },
            onProblem: { [logger] line in logger.warn(line) })
        link.watchForEnd(ofProcess: pid)
        return .success((owned, link, told))
    }

    /// What a module's process may burn in a command or a screen, its whole tree counted:
    /// each waits for the person as long as it likes, so a time limit cannot serve there.
    private static func cpuBudget(_ limits: ModuleLimits, pid: pid_t) -> CPUBudget {
        CPUBudget(
            limit: .seconds(limits.cpuSeconds ?? ModuleLimits.cpuSecondsByDefault), setting: "limits.cpuSeconds in modules.json",
            callNames: [
                "\(IsolatedModule.control).command": "a command", "\(IsolatedModule.control).screen": "a screen",
                "\(IsolatedModule.screens).show": "a screen",
            ]
        ) { Descendants.cpuTime(ofTreeOf: pid) }
    }

    /// Module `entry`'s process, started; once it has ended, its temporary folder is removed
    /// (its own way out leaves it when its sandbox watches removals, and a crash always does).
    private func startProcess(of entry: ModuleEntry) throws(ModuleProcess.StartError) -> ModuleProcess {
        let process = try ModuleProcess(spawning: .host(moduleHostArguments(entry)))
        process.afterEnd = afterEnd(of: entry)
        return process
    }

    /// What follows the end of a process of module `entry`: its temporary folder removed.
    private func afterEnd(of entry: ModuleEntry) -> @Sendable (pid_t) -> Void {
        let folder = options.dataFolder + "/" + entry.name
        return { pid in FolderTree.remove(ModuleProcess.temporaryFolderName(of: pid), inFolderAt: folder) }
    }

    /// The command line of module `entry`'s process: the routes it may call come with the
    /// host's hello.
    private func moduleHostArguments(_ entry: ModuleEntry) -> [String] {
        options.moduleHostOptions + [Self.moduleHostCommand, entry.name]
    }

    /// Starts the process of each isolated module this run may start that the command line
    /// has not started yet (see EarlyProcesses.swift), before the plan's checks.
    func startProcessesEarly() {
        for (name, pid) in Self.startProcessesEarly(for: configuration, options: options) {
            logger.debug("module '\(name)': its process (\(pid)) started before the checks")
        }
    }

    /// The app's relay of presented screens; `nil` outside the app (a command presents none).
    private var screenRelay: (any ScreenRelaying)? { isolatedScreens.withLock { $0?.relay } }

    private struct NoScreens: Error, CustomStringConvertible {
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
        // Its process ends after its answer; how it ended its wait status tells (below).
        isolated.link.expectEnd()
        isolated.link.lookForNextFrame(Self.startLook)
        try? RemoteObject.route(IsolatedModule.control, on: isolated.link).call("stop", RouteArguments())
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

    private static func reason(of error: RouteCallError) -> String {
        if case .unavailable(_, let reason) = error { return reason }
        return error.description
    }

    private static func startProblem(_ error: ModuleProcess.StartError) -> HostText {
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
