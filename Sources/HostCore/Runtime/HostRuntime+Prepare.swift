import Foundation
@_spi(Host) import ModuleKit

extension HostRuntime {
    /// Loads every enabled library, checks its configuration, and plans the start order,
    /// without running module code beyond the handshake. Safe to call more than once.
    public func prepare() {
        state.withLock { state in
            guard !state.isPrepared else { return }
            state.isPrepared = true
            prepare(&state)
        }
    }

    func prepare(_ state: inout State) {
        var reports: [ModuleReport] = []
        var badConfigurations: [String: String] = [:]
        for entry in configuration.modules {
            var report = ModuleReport(name: entry.name, state: .disabled)
            guard entry.enabled else {
                report.reason = disabledReason(entry)
                reports.append(report)
                continue
            }
            switch locate(entry) {
            case .failure(let error):
                report.state = .failed
                report.reason = "library '\(error.path)' \(error.cause)"
            case .success(let path):
                report.library = path
                do throws(LoadError) {
                    let module = try loader.load(name: entry.name, path: path)
                    report.version = module.version
                    report.provides = module.manifest.provides.map(\.name)
                    report.requires = module.manifest.requires.map(\.name)
                    report.uses = module.manifest.uses.map(\.name)
                    state.loaded[entry.name] = module
                    do {
                        try module.instance.validateConfiguration(entry.config)
                        state.strings[entry.name] = try strings(of: module)
                    } catch {
                        badConfigurations[entry.name] = "\(error)"
                    }
                } catch {
                    report.state = .failed
                    report.reason = "library '\(error.path)' \(error.cause)"
                }
            }
            reports.append(report)
        }
        let selected = selection(loaded: state.loaded)
        for index in reports.indices where state.loaded[reports[index].name] != nil && !selected.contains(reports[index].name) {
            reports[index].state = .disabled
            reports[index].reason = "not selected by --only \((options.only ?? []).joined(separator: ","))"
        }
        var graph = DependencyGraph(
            nodes: configuration.modules.compactMap { entry in
                guard selected.contains(entry.name), let module = state.loaded[entry.name] else { return nil }
                return DependencyGraph.Node(name: entry.name, manifest: module.manifest)
            },
            hostRoutes: Self.hostRoutes,
            explainMissing: { route in Self.explainMissing(route, reports: reports) }
        )
        graph.alreadyFailed = badConfigurations.filter { selected.contains($0.key) }
        state.plan = graph.plan()
        for index in reports.indices {
            if let blocked = state.plan.blocked[reports[index].name] {
                reports[index].state = blocked.state
                reports[index].reason = blocked.reason
            } else if state.plan.order.contains(reports[index].name) {
                reports[index].state = .active
                reports[index].reason = nil
            }
        }
        state.reports = reports
        markUnavailableRoutes(state)
        if !state.isStarted { hostInfo.update(reports) }
    }

    /// The module's strings, read from beside its library (none when it declares none).
    ///
    /// - Throws: ``StringsError`` when it declares strings that cannot be read.
    private func strings(of module: LoadedModule) throws -> ModuleStrings {
        guard let folder = module.manifest.stringsFolder else { return .none(locale: locale) }
        let libraryFolder = URL(fileURLWithPath: module.path).deletingLastPathComponent().path
        return try ModuleStrings.load(module: module.manifest.name, from: libraryFolder + "/" + folder, locale: locale)
    }

    private func disabledReason(_ entry: ModuleEntry) -> String {
        if options.disable.contains(where: { $0.lowercased() == entry.name.lowercased() }) { return "disabled by --disable" }
        return "disabled in modules.json"
    }

    /// The library's path: `library` from modules.json, else `lib<Name>.so` in the search paths.
    private func locate(_ entry: ModuleEntry) -> Result<String, LoadError> {
        let folder = URL(fileURLWithPath: configuration.path).deletingLastPathComponent().path
        if let library = entry.library {
            return .success(ModulesFileDecoder.absolute(library, relativeTo: folder))
        }
        let file = "lib\(entry.name).so"
        let candidates = configuration.searchPaths.map { URL(fileURLWithPath: $0).appendingPathComponent(file).path }
        if let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            return .success(found)
        }
        let searched = configuration.searchPaths.map { "'\($0)'" }.joined(separator: ", ")
        return .failure(
            LoadError(
                kind: .missingFile, module: entry.name, path: file,
                cause:
                    "was not found in the search paths (\(searched)); build it with 'swift build --product \(entry.name)' or set 'library' in modules.json"
            ))
    }

    /// With `--only`, the named modules plus every provider they require, transitively.
    private func selection(loaded: [String: LoadedModule]) -> Set<String> {
        guard let only = options.only else { return Set(loaded.keys) }
        var providers: [RouteKey: String] = [:]
        for entry in configuration.modules {
            for route in loaded[entry.name]?.manifest.provides ?? [] where providers[route] == nil {
                providers[route] = entry.name
            }
        }
        var selected: Set<String> = []
        var pending = only.compactMap { configuration.entry(named: $0)?.name }
        while let name = pending.popLast() {
            guard selected.insert(name).inserted else { continue }
            pending += (loaded[name]?.manifest.requires ?? []).compactMap { providers[$0] }
        }
        return selected.intersection(loaded.keys)
    }

    /// Names the module that would provide `route` when it is conventionally named after it
    /// (`GeoRoute` from `Geo`) and is not running.
    static func explainMissing(_ route: RouteKey, reports: [ModuleReport]) -> String? {
        guard route.name.hasSuffix("Route") else { return nil }
        let owner = String(route.name.dropLast("Route".count)).lowercased()
        guard let report = reports.first(where: { $0.name.lowercased() == owner }) else { return nil }
        switch report.state {
        case .disabled:
            return "\(report.name) is \(report.reason ?? "disabled")"
        case .failed:
            return "\(report.name) failed: \(report.reason ?? "")"
        case .active, .skipped:
            return nil
        }
    }

    /// Tells the locator why routes declared by modules have no working provider, so that a
    /// module resolving them gets the reason.
    private func markUnavailableRoutes(_ state: State) {
        var declared: Set<RouteKey> = []
        for module in state.loaded.values {
            declared.formUnion(module.manifest.declaredRoutes)
        }
        for route in declared {
            if let provider = state.plan.providers[route] {
                if let blocked = state.plan.blocked[provider] {
                    locator.markUnavailable(route, reason: "'\(provider)' \(blocked.state.rawValue): \(blocked.reason)")
                } else if !state.plan.order.contains(provider) && provider != Self.hostName {
                    locator.markUnavailable(route, reason: "'\(provider)' is not selected by --only")
                }
            } else {
                let why = Self.explainMissing(route, reports: state.reports).map { ": \($0)" } ?? ""
                locator.markUnavailable(route, reason: "no active module provides it\(why)")
            }
        }
    }
}
