import Contracts
import HostGraph
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit
import Synchronization

// Loading: the planned libraries opened under the guard, their configurations checked and
// their strings read; the same steps the probe of `check` takes one module at a time.
extension HostRuntime {
    /// Loads the libraries the plan starts, in order, each under the guard, then checks their
    /// configurations and reads their strings; then re-plans so a module that failed takes its
    /// dependents with it.
    ///
    /// Every library is opened before any configuration is read: each `dlopen` empties the
    /// Swift runtime's conformance cache, and each type then looked up costs a scan of every
    /// loaded conformance again (about 250 K instructions), once per library otherwise.
    func load(_ state: inout Snapshot) {
        var failures: [String: HostText] = [:]
        // Made before the first `dlopen`, so that their storage types are instantiated while
        // the conformance cache still holds `String: Hashable`.
        state.loaded.reserveCapacity(state.plan.order.count)
        state.strings.reserveCapacity(state.plan.order.count)
        failures.reserveCapacity(1)
        // Before any library of this process is opened: what a module's own process maps.
        if state.plan.order.contains(where: { configuration.entry(named: $0)?.isolation == .process }) { noteModuleProcessImages() }
        // A module in a process of its own is greeted in its turn, and its process's hello read
        // once the others are loaded: the host loads them while it starts. Its load time is the
        // host's time on it, the greeting and the wait for that hello.
        var launches: [(name: String, launch: PendingLaunch)] = []
        let preparations = prepareLoads(state)
        for (index, name) in state.plan.order.enumerated() {
            guard let inspected = state.inspected[name], let entry = configuration.entry(named: name) else { continue }
            if entry.isolation == .process {
                let mark = ModuleTiming.Mark.now(measuringMemory: false)
                switch beginLaunch(entry, inspected, plan: state) {
                case .success(let launch): launches.append((name, launch))
                case .failure(let problem): failures[name] = problem.text
                }
                state.timings[name, default: ModuleTiming()].add(\.load, since: mark)
                continue
            }
            do {
                let mark = ModuleTiming.Mark.now(measuringMemory: options.measuresMemory)
                defer { state.timings[name, default: ModuleTiming()].add(\.load, since: mark) }
                state.loaded[name] = try open(entry, inspected, preparation: preparations[index])
            } catch {
                failures[name] = Self.loadProblem(error)
            }
        }
        for name in state.plan.order {
            guard let module = state.loaded[name], let inspected = state.inspected[name], let entry = configuration.entry(named: name)
            else { continue }
            do {
                let mark = ModuleTiming.Mark.now(measuringMemory: options.measuresMemory)
                defer { state.timings[name, default: ModuleTiming()].add(\.configuration, since: mark) }
                state.strings[name] = try configure(module, entry, inspected, everyLocale: false)
            } catch {
                failures[name] = Self.loadProblem(error)
            }
        }
        for (name, launch) in launches {
            let mark = ModuleTiming.Mark.now(measuringMemory: false)
            switch finishLaunch(launch) {
            case .success(let isolated):
                state.isolated[name] = isolated
                if let index = state.reports.firstIndex(where: { $0.name == name }) { state.reports[index].processID = isolated.pid }
            case .failure(let problem): failures[name] = problem.text
            }
            state.timings[name, default: ModuleTiming()].add(\.load, since: mark)
        }
        failures.merge(routeIdentityConflicts(state)) { first, _ in first }
        if !failures.isEmpty { replan(&state, failing: failures) }
        markUnavailableRoutes(state)
    }

    // MARK: - The two steps, shared with the probe

    /// What loading each planned library in this process reads of its file (the libraries
    /// beside it it needs), read two at a time where there are many (see `SharedWork`); in the
    /// plan's order, `nil` where none was read ahead. Fewer are read by each load in its turn.
    private func prepareLoads(_ state: Snapshot) -> [TrustedLibrary.Preparation?] {
        let files = state.plan.order.map { name in
            configuration.entry(named: name)?.isolation == .process ? nil : state.inspected[name]?.file
        }
        var preparations = [TrustedLibrary.Preparation?](repeating: nil, count: files.count)
        guard files.count(where: { $0 != nil }) >= SharedWork.helpedFrom else { return preparations }
        let found = Mutex(preparations)
        SharedWork.forEach(files.count) { index in
            guard let file = files[index] else { return }
            let prepared = TrustedLibrary.prepare(file)
            found.withLock { $0[index] = prepared }
        }
        found.withLock { preparations = $0 }
        return preparations
    }

    /// Opens module `entry`'s checked library under the guard and makes its module object
    /// (from `preparation`, when its file was read ahead).
    ///
    /// - Throws: ``LoadError``.
    func open(_ entry: ModuleEntry, _ inspected: InspectedLibrary, preparation: TrustedLibrary.Preparation? = nil) throws
        -> LoadedModule
    {
        let before = TrustedLibrary.loadedCount
        defer {
            for path in TrustedLibrary.loadedPaths(after: before) {
                logger.debug("module '\(entry.name)': loaded '\(path)' from the file that was checked")
            }
        }
        return try moduleGuard.run(
            entry.name, .load, library: inspected.path, identity: inspected.identity, timeout: entry.timeout
        ) { () throws(LoadError) -> LoadedModule in
            try loader.load(name: entry.name, file: inspected.file, descriptor: inspected.descriptor, preparation: preparation)
        }
    }

    /// Checks a loaded module's configuration and reads its strings, under the guard: in the
    /// person's language for a run, or every shipped locale (each file parsed) for `check`.
    ///
    /// - Throws: what the module's configuration check throws, or ``StringsError``.
    func configure(_ module: LoadedModule, _ entry: ModuleEntry, _ inspected: InspectedLibrary, everyLocale: Bool) throws -> ModuleStrings {
        try moduleGuard.run(entry.name, .configuration, library: inspected.path, identity: inspected.identity, timeout: entry.timeout) {
            try module.instance.validateConfiguration(entry.config)
            return try everyLocale ? stringsInEveryLocale(of: module) : strings(of: module)
        }
    }

    /// Why a module did not load, from what ``open(_:_:)`` or ``configure(_:_:_:everyLocale:)``
    /// threw.
    static func loadProblem(_ error: any Error) -> HostText {
        switch error {
        case let error as LoadError: libraryProblem(error.path, error.causeText)
        case let error as StringsError: error.text
        default: .plain("\(error)")
        }
    }

    /// Loaded modules that declare a route under another type than its provider's.
    private func routeIdentityConflicts(_ state: Snapshot) -> [String: HostText] {
        let declarers = state.plan.order.compactMap { name in state.loaded[name].map { RouteIdentity.Declarer($0, named: name) } }
        return RouteIdentity.conflicts(among: declarers, hostRoutes: Self.hostRoutes, hostName: Self.hostName)
    }

    /// Tells the locator why routes declared by loaded modules have no working provider, so
    /// that a module resolving them gets the reason.
    func markUnavailableRoutes(_ state: Snapshot) {
        // Told apart by the route's type, as the locator keys them, in a list: this runs after
        // the last `dlopen`, when a new `Hashable` key type (a Set or a dictionary keyed by
        // `ObjectIdentifier`) costs a scan of every loaded conformance record.
        var declared: [RouteKey] = []
        for module in state.loaded.values {
            for route in module.manifest.declaredRoutes where !declared.contains(where: { $0.id == route.id }) {
                declared.append(route)
            }
        }
        for route in declared {
            if let provider = state.plan.providers[route.name] {
                if let blocked = state.plan.blocked[provider] {
                    locator.markUnavailable(route, reason: "'\(provider)' \(blocked.state.rawValue): \(blocked.reason.description)")
                } else if !state.plan.order.contains(provider) && provider != Self.hostName {
                    locator.markUnavailable(route, reason: "'\(provider)' is not selected by --only")
                }
            } else {
                let why =
                    Self.explainMissing(route.name, reports: state.reports, disabled: state.disabledDescriptors).map {
                        ": \($0.description)"
                    }
                    ?? ""
                locator.markUnavailable(route, reason: "no active module provides it\(why)")
            }
        }
    }

    /// The module's strings, read from beside its library (none when it declares none).
    ///
    /// - Throws: ``StringsError`` when it declares strings that cannot be read.
    func strings(of module: LoadedModule) throws -> ModuleStrings {
        guard let folder = stringsFolder(of: module) else { return .none(locale: locale) }
        return try ModuleStrings.load(module: module.manifest.name, from: folder, locale: locale)
    }

    /// Every shipped locale of `module`'s strings, each file parsed: what `check` validates.
    func stringsInEveryLocale(of module: LoadedModule) throws -> ModuleStrings {
        guard let folder = stringsFolder(of: module) else { return .none(locale: locale) }
        return try ModuleStrings.loadEveryLocale(module: module.manifest.name, from: folder, locale: locale)
    }

    /// Where `module`'s strings are: its strings folder beside its library.
    private func stringsFolder(of module: LoadedModule) -> String? {
        guard let folder = module.manifest.stringsFolder else { return nil }
        return module.folder + "/" + folder
    }

    /// Module `name`'s strings (none when it has none or did not load).
    package func strings(of name: String) -> ModuleStrings {
        read { $0.strings[name] } ?? .none(locale: locale)
    }
}

extension RouteIdentity.Declarer {
    /// A loaded module's routes, as its manifest declares them.
    init(_ module: LoadedModule, named name: String) {
        let manifest = module.manifest
        self.init(
            name: name, library: module.path, provides: manifest.provides,
            declared: manifest.provides + manifest.requires + manifest.uses)
    }
}
