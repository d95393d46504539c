import Contracts
import FoundationEssentials
import Glibc
import HostGraph
import HostIsolation
import HostLoading
import HostModel
@_spi(Host) import ModuleKit
import Synchronization

extension HostRuntime {
    /// Registers and starts every planned module in dependency order, then seals the locator:
    /// the work of the start phase, on the loaded snapshot (called without the runtime's lock).
    ///
    /// A module that throws in register or start is marked failed and its registrations are
    /// withdrawn; modules that require it are skipped; all others start.
    func startModules(_ state: inout Snapshot) {
        // A module's own process leaves this to the host: its sandbox opens only its module's folder.
        if options.parentLink == nil {
            do {
                try ModuleStorage.checkDataFolder(options.dataFolder) { [logger] in logger.info($0) }
            } catch {
                logger.error("\(error); modules that store data will fail")
            }
        }
        registerHostRoutes()
        for name in state.plan.order {
            if let isolated = state.isolated[name] {
                start(isolated, in: &state)
                continue
            }
            guard let module = state.loaded[name], let entry = configuration.entry(named: name) else { continue }
            let timeout = entry.timeout
            let identity = state.inspected[name]?.identity
            if let reason = unmetRequirement(of: module.manifest, in: state) {
                settle(name, as: .skipped, reason: reason, module: module, in: &state)
                continue
            }
            let context = self.context(
                named: name, resolver: locator.resolver(for: module.manifest, access: access),
                strings: state.strings[name] ?? .none(locale: locale),
                libraryFolder: module.folder)
            state.contexts[name] = context
            do {
                let mark = ModuleTiming.Mark.now(measuringMemory: options.measuresMemory)
                defer { state.timings[name, default: ModuleTiming()].add(\.register, since: mark) }
                try moduleGuard.run(name, .register, library: module.path, identity: identity, timeout: timeout) {
                    try module.instance.register(ModuleRegistry(context: context, locator: locator), configuration: entry.config)
                }
            } catch {
                settle(
                    name, as: .failed, reason: HostText("reason.threw.register", "threw in register: %@", [.plain("\(error)")]),
                    module: module,
                    in: &state)
                continue
            }
            do {
                let mark = ModuleTiming.Mark.now(measuringMemory: options.measuresMemory)
                defer { state.timings[name, default: ModuleTiming()].add(\.start, since: mark) }
                try moduleGuard.run(name, .start, library: module.path, identity: identity, timeout: timeout) {
                    try module.instance.start(context)
                }
            } catch {
                settle(
                    name, as: .failed, reason: HostText("reason.threw.start", "threw in start: %@", [.plain("\(error)")]), module: module,
                    in: &state)
                continue
            }
            state.started.append(name)
            logger.debug("module '\(name)' started")
        }
        locator.seal()
        hostInfo.update(state.reports)
    }

    /// Stops the started modules in reverse order: the work of the stop phase (called without
    /// the runtime's lock).
    func stopModules(_ state: Snapshot) {
        for name in state.started.reversed() {
            if let isolated = state.isolated[name] {
                stopIsolated(isolated)
                continue
            }
            guard let module = state.loaded[name] else { continue }
            let timeout = configuration.entry(named: name)?.timeout ?? ModuleGuard.defaultTimeout
            moduleGuard.run(name, .stop, library: module.path, identity: state.inspected[name]?.identity, timeout: timeout) {
                module.instance.stop()
            }
            logger.debug("module '\(name)' stopped")
        }
        // Those that never started: their processes end too.
        for isolated in state.isolated.values where !state.started.contains(isolated.name) {
            isolated.link.close()
            _ = isolated.ended(grace: .seconds(1))
        }
    }

    /// Starts module `isolated` in its process, after what it requires.
    private func start(_ isolated: IsolatedModule, in state: inout Snapshot) {
        let name = isolated.name
        if let reason = unmetRequirement(of: isolated.manifest, in: state) {
            settle(name, as: .skipped, reason: reason, provides: isolated.manifest.provides, in: &state)
            return
        }
        let context = self.context(
            named: name, resolver: locator.resolver(for: isolated.manifest, access: access), strings: .none(locale: locale))
        state.contexts[name] = context
        if let reason = startIsolated(isolated, context: context, timings: &state.timings[name, default: ModuleTiming()]) {
            settle(name, as: .failed, reason: reason, provides: isolated.manifest.provides, in: &state)
            return
        }
        state.started.append(name)
        logger.debug("module '\(name)' started in process \(isolated.pid)")
    }

    /// The active modules with what calling into them needs, read under the lock; the calls
    /// themselves happen after it is released.
    private var activeModules: [(name: String, module: LoadedModule, context: ModuleContext, identity: FileIdentity?)] {
        read { state in
            state.reports.compactMap { report in
                guard report.state == .active, let module = state.loaded[report.name], let context = state.contexts[report.name] else {
                    return nil
                }
                return (report.name, module, context, state.inspected[report.name]?.identity)
            }
        }
    }

    /// The commands of every active module, in file order.
    public var commands: [(module: String, commands: [ModuleCommand])] {
        activeModules.map { active in
            (
                active.name,
                moduleGuard.run(active.name, .contributions, library: active.module.path, identity: active.identity) {
                    active.module.instance.commands(active.context)
                }
            )
        }
    }

    /// A module's context: its resolver, its storage in the data folder, its strings (read when it
    /// was loaded, see `configure`), and the app's shared locale and navigator.
    func context(
        named name: String, resolver: ModuleResolver, strings: ModuleStrings,
        libraryFolder: String = ProcessLocation.executableFolder
    ) -> ModuleContext {
        ModuleContext(
            moduleName: name, environment: configuration.environment,
            logger: name == Self.hostName ? logger : logger.relabeled(name), resolver: resolver,
            storage: storage(of: name),
            strings: strings, locale: locale,
            navigator: navigator, libraryFolder: libraryFolder)
    }

    /// Module `name`'s storage in the data folder, the same each time it is asked.
    package func storage(of name: String) -> ModuleStorage {
        storages.withLock { storages in
            if let made = storages[name] { return made }
            let made = ModuleStorage(dataFolder: options.dataFolder, module: name) { [logger] in logger.relabeled(name).info($0) }
            storages[name] = made
            return made
        }
    }

    /// The Home entries of every active module, in file order, each with its number on Home.
    ///
    /// A module's first entry takes the module's position in modules.json, so an entry keeps
    /// its number whichever other modules are on or off; a module's further entries follow
    /// the last position, in order. A module in a process of its own says its entries' titles
    /// from there; choosing one runs its screens there (``isolatedScreens``).
    @MainActor public var homeEntries: [(number: Int, entry: HomeEntry)] {
        let (reports, loaded, isolated, contexts, identities) = read { state in
            (state.reports, state.loaded, state.isolated, state.contexts, state.inspected.mapValues(\.identity))
        }
        let positions = Dictionary(reports.enumerated().map { ($1.name, $0 + 1) }) { first, _ in first }
        var next = positions.count + 1
        var all: [(number: Int, entry: HomeEntry)] = []
        for report in reports where report.state == .active {
            let name = report.name
            let entries: [HomeEntry]
            if let module = loaded[name], let context = contexts[name] {
                let made = moduleGuard.run(name, .contributions, library: module.path, identity: identities[name]) {
                    module.instance.homeEntries(context)
                }
                entries = made.map { entry in
                    HomeEntry(title: entry.title) { [self] in
                        AttributedScreen.wrap(guarded(name, .screen) { entry.open() }, module: name, runtime: self)
                    }
                }
            } else if let module = isolated[name], let makeScreen = isolatedScreens.withLock({ $0 }) {
                let titles = (try? module.homeTitles()) ?? []
                entries = titles.enumerated().map { index, title in HomeEntry(title: title) { makeScreen.make(module, index) } }
            } else {
                continue
            }
            for (offset, entry) in entries.enumerated() {
                var number = positions[name] ?? next
                if offset > 0 || positions[name] == nil {
                    number = next
                    next += 1
                }
                all.append((number, entry))
            }
        }
        return all
    }

    private func registerHostRoutes() {
        let context = context(named: Self.hostName, resolver: resolver, strings: strings)
        let registry = ModuleRegistry(context: context, locator: locator)
        do {
            // In a module's own process, the routes the host serves it are proxies of the host's.
            if let parent = options.parentLink {
                // A language chosen here (Settings in this process) reaches the host before
                // anything it is asked to show.
                let endpoint = RouteEndpoint(parent, beforeCall: { [parentLanguage] link in parentLanguage.tellHost(on: link) })
                for route in options.parentRoutes {
                    try RouteBridge.all[route]?.registerProxy(registry, .route(route, at: endpoint))
                }
            }
            if !options.parentRoutes.contains("HostInfoRoute") {
                try registry.route((any HostInfoRoute).self, .singleton(hostInfo))
            }
        } catch {
            // Only possible when this locator already ran a host; the existing route serves.
            logger.warn("host routes not registered: \(error)")
        }
    }

    /// Why `manifest` cannot start now that earlier modules have settled, or `nil`.
    private func unmetRequirement(of manifest: ModuleManifest, in state: Snapshot) -> HostText? {
        DependencyGraph.unmetRequirement(
            requiring: manifest.requires.map(\.name),
            providers: state.plan.providers,
            explainMissing: { Self.explainMissing($0, reports: state.reports, disabled: state.disabledDescriptors) },
            stateOf: { provider in
                guard let report = state.reports.first(where: { $0.name == provider }), report.state != .active else { return nil }
                return (report.state, report.reasonText ?? .plain(""))
            }
        )
    }

    /// Records that `name` did not start, and withdraws what it registered.
    private func settle(_ name: String, as moduleState: ModuleState, reason text: HostText, module: LoadedModule, in state: inout Snapshot)
    {
        settle(name, as: moduleState, reason: text, provides: module.manifest.provides, in: &state)
    }

    private func settle(_ name: String, as moduleState: ModuleState, reason text: HostText, provides: [RouteKey], in state: inout Snapshot)
    {
        let reason = text.description
        if let index = state.reports.firstIndex(where: { $0.name == name }) {
            state.reports[index].outcome = ModuleReport.Outcome(moduleState, text)
        }
        locator.withdraw(module: name, provided: provides, reason: "'\(name)' \(moduleState.rawValue): \(reason)")
        logger.debug("module '\(name)' \(moduleState.rawValue): \(reason)")
    }

    /// Runs `body`, code of module `name` that the host calls outside the lifecycle (a command).
    package func guarded<T>(_ name: String, _ phase: GuardPhase, _ body: () throws -> T) rethrows -> T {
        let (path, identity) = read { ($0.loaded[name]?.path, $0.inspected[name]?.identity) }
        return try moduleGuard.run(name, phase, library: path, identity: identity, body)
    }
}
