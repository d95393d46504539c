import Foundation
@_spi(Host) import ModuleKit

extension HostRuntime {
    /// The largest module library the host reads.
    static let maximumLibrarySize = 512 << 20

    /// A library checked and described: what planning knows of an enabled module.
    struct Inspected: Sendable {
        let path: String
        /// The open file that was checked, hashed and described: the one that is loaded.
        let file: TrustedFile
        let descriptor: ModuleDescriptor
        let sha256: String?

        var identity: FileIdentity { file.identity }
    }

    /// Reads every enabled library's descriptor, checks trust and crash records, and plans the
    /// start order: no module code runs.
    func plan(_ state: inout Snapshot) {
        var crashes = CrashRecords(dataFolder: options.dataFolder, collect: options.recordsCrashes && !options.readOnly)
        if options.recordsCrashes && !options.readOnly && options.retry.contains(where: { ModuleName($0) == ModuleName("all") }) {
            crashes.forgetAll()
        }
        if let problem = crashes.problem { logger.warn("crash records are neither read nor obeyed: \(problem)") }
        for record in crashes.vanished { logger.warn(record.warningText.description) }
        moduleGuard.watch(crashes.warnings)
        var reports: [ModuleReport] = []
        for entry in configuration.modules {
            // Active until the plan says otherwise (see `apply`).
            var report = ModuleReport(name: entry.name, outcome: .active)
            guard entry.enabled else {
                report.outcome = .disabled(disabledReason(entry))
                reports.append(report)
                continue
            }
            if let problem = KitOrigin.problem {
                report.outcome = .failed(problem)
                reports.append(report)
                continue
            }
            do throws(LoadError) {
                let inspected = try inspect(entry, hashing: options.hashLibraries)
                report.library = inspected.path
                report.version = inspected.descriptor.version
                report.sdk = inspected.descriptor.sdkVersion
                report.provides = inspected.descriptor.provides
                report.requires = inspected.descriptor.requires
                report.uses = inspected.descriptor.uses
                report.sha256 = inspected.sha256
                state.inspected[entry.name] = inspected
                if options.recordsCrashes {
                    if options.retry.containsModule(entry.name) {
                        if !options.readOnly { crashes.forget(entry.name) }
                    } else if let record = crashes.record(for: entry.name, identity: inspected.identity) {
                        report.outcome = .failed(record.reasonText)
                        state.crashed[entry.name] = record.reasonText
                    } else if let record = crashes.records[entry.name], record.identity != inspected.identity, !options.readOnly {
                        crashes.forget(entry.name)
                        logger.info("module '\(entry.name)': its library changed since it crashed the host; trying it again")
                    }
                }
            } catch {
                report.outcome = .failed(Self.libraryProblem(error.path, error.causeText))
                report.library = error.path.hasPrefix("/") ? error.path : nil
            }
            reports.append(report)
        }
        let selected = selection(inspected: state.inspected)
        readDisabledDescriptorsIfMissed(&state, selected: selected)
        for index in reports.indices where state.inspected[reports[index].name] != nil && !selected.contains(reports[index].name) {
            reports[index].outcome = .disabled(
                HostText("reason.not.selected", "not selected by --only %@", [.plain((options.only ?? []).joined(separator: ","))]))
        }
        let explain: @Sendable (String) -> HostText? = { [reports, disabled = state.disabledDescriptors] route in
            Self.explainMissing(route, reports: reports, disabled: disabled)
        }
        var graph = DependencyGraph(
            nodes: configuration.modules.compactMap { entry in
                guard selected.contains(entry.name), let inspected = state.inspected[entry.name] else { return nil }
                return DependencyGraph.Node(name: entry.name, descriptor: inspected.descriptor)
            },
            hostRoutes: Self.hostRoutes.map(\.name), hostName: Self.hostName,
            explainMissing: explain
        )
        graph.alreadyFailed = state.crashed.filter { selected.contains($0.key) }
        state.plan = graph.plan()
        let contracts = contractsConflicts(state)
        if !contracts.isEmpty {
            graph.alreadyFailed.merge(contracts) { first, _ in first }
            state.plan = graph.plan()
        }
        state.graph = graph
        apply(state.plan, to: &reports)
        state.reports = reports
        hostInfo.update(reports)
    }

    /// Planned modules built against a version of a contracts library that does not fit the one
    /// the process will hold (see ``ContractsCheck``), with the reason each must not be loaded.
    private func contractsConflicts(_ state: Snapshot) -> [String: HostText] {
        let modules = state.plan.order.compactMap { name in
            state.inspected[name].map { ContractsCheck.Module(name: name, library: $0.path, contracts: $0.descriptor.contracts) }
        }
        let reasons = ContractsCheck.conflicts(in: modules, beside: Self.contractsLibrary(beside:named:))
        return reasons.reduce(into: [:]) { result, item in
            result[item.key] = Self.libraryProblem(state.inspected[item.key]?.path ?? item.key, item.value)
        }
    }

    /// The contracts library `lib<name>.so` beside a module's library, where the loader looks
    /// first (SwiftPM links modules with the run path `$ORIGIN`), checked like a module library.
    static func contractsLibrary(beside library: String, named name: String) -> ContractsCheck.Beside {
        let path = FilePaths.folder(of: library) + "/lib\(name).so"
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: maximumLibrarySize)
        } catch {
            return error == .missing
                ? .nothing : .refused(HostText("", "'%@' %@", [.plain(Escaped(path).description), .text(error.text(for: path))]))
        }
        do {
            guard let found = try DescriptorReader.readContractsVersion(fileDescriptor: file.descriptor) else {
                return .unrecorded(path: path)
            }
            guard found.name == name else {
                return .refused(
                    HostText(
                        "contracts.other.name", "'%@' records the version of contracts '%@', not '%@'",
                        [.plain(Escaped(path).description), .plain(found.name), .plain(name)]))
            }
            // Library evolution holds between binaries of one compiler: the kit's.
            if let compiler = found.compiler, compiler != ModuleKitABI.compiler {
                return .refused(
                    HostText(
                        "contracts.compiler", "'%@' was built by '%@', this host's kit by '%@'; rebuild it with '%@'",
                        [.plain(Escaped(path).description), .plain(compiler), .plain(ModuleKitABI.compiler), .plain(ModuleKitABI.compiler)])
                )
            }
            return .version(found, path: path)
        } catch {
            switch error {
            case .notELF(let what): return .refused(HostText("", "'%@' %@", [.plain(Escaped(path).description), .plain(what)]))
            case .missing: return .unrecorded(path: path)
            case .malformed(let what):
                return .refused(
                    HostText(
                        "contracts.malformed", "'%@' has a malformed contracts section: it %@",
                        [.plain(Escaped(path).description), .plain(what)]))
            }
        }
    }

    /// Reads the descriptors of disabled modules, but only when a selected module declares a
    /// route no selected module provides: then they can say who would have provided it. A
    /// problem with a disabled module's file is not reported (it is not used).
    private func readDisabledDescriptorsIfMissed(_ state: inout Snapshot, selected: Set<String>) {
        let descriptors = selected.compactMap { state.inspected[$0]?.descriptor }
        let provided = Set(descriptors.flatMap(\.provides) + Self.hostRoutes.map(\.name))
        guard descriptors.contains(where: { !Set($0.requires + $0.uses).isSubset(of: provided) }) else { return }
        for entry in configuration.modules where !entry.enabled {
            if let inspected = try? inspect(entry, hashing: false) {
                state.disabledDescriptors[entry.name] = inspected.descriptor
            }
        }
    }

    /// Loads the libraries the plan starts, in order, each under the guard, then checks their
    /// configurations and reads their strings; then re-plans so a module that failed takes its
    /// dependents with it.
    ///
    /// Every library is opened before any configuration is read: each `dlopen` empties the
    /// Swift runtime's conformance cache, and each type then looked up costs a scan of every
    /// loaded conformance again (about 250 K instructions), once per library otherwise.
    func load(_ state: inout Snapshot) {
        var failures: [String: HostText] = [:]
        func fail(_ name: String, _ error: any Error) {
            switch error {
            case let error as LoadError: failures[name] = Self.libraryProblem(error.path, error.causeText)
            case let error as StringsError: failures[name] = error.text
            default: failures[name] = .plain("\(error)")
            }
        }
        state.loaded.reserveCapacity(state.plan.order.count)
        for name in state.plan.order {
            guard let inspected = state.inspected[name], let entry = configuration.entry(named: name) else { continue }
            let timeout = entry.startTimeout ?? ModuleGuard.defaultTimeout
            let before = TrustedLibrary.loadedPaths.count
            do {
                state.loaded[name] = try moduleGuard.run(
                    name, .load, library: inspected.path, identity: inspected.identity, timeout: timeout
                ) { () throws(LoadError) -> LoadedModule in
                    try loader.load(name: name, file: inspected.file, descriptor: inspected.descriptor)
                }
            } catch {
                fail(name, error)
            }
            for path in TrustedLibrary.loadedPaths.dropFirst(before) {
                logger.debug("module '\(name)': loaded '\(path)' from the file that was checked")
            }
        }
        for name in state.plan.order {
            guard let module = state.loaded[name], let inspected = state.inspected[name], let entry = configuration.entry(named: name)
            else { continue }
            let timeout = entry.startTimeout ?? ModuleGuard.defaultTimeout
            do {
                try moduleGuard.run(name, .configuration, library: inspected.path, identity: inspected.identity, timeout: timeout) {
                    try module.instance.validateConfiguration(entry.config)
                    state.strings[name] = try strings(of: module)
                }
            } catch {
                fail(name, error)
            }
        }
        failures.merge(routeIdentityConflicts(state)) { first, _ in first }
        if !failures.isEmpty { replan(&state, failing: failures) }
        markUnavailableRoutes(state)
    }

    /// Loaded modules that declare a route under another type than its provider's.
    private func routeIdentityConflicts(_ state: Snapshot) -> [String: HostText] {
        let declarers = state.plan.order.compactMap { name in state.loaded[name].map { RouteIdentity.Declarer($0, named: name) } }
        return RouteIdentity.conflicts(among: declarers, hostRoutes: Self.hostRoutes, hostName: Self.hostName)
    }

    /// Plans again among the modules already planned, with `failures` failed as well as every
    /// module that failed before (a recorded crash, a contracts refusal), so that what requires
    /// them is skipped with the reason.
    func replan(_ state: inout Snapshot, failing failures: [String: HostText]) {
        guard var graph = state.graph else { return }
        let nodes = Set(graph.nodes.map(\.name))
        graph.alreadyFailed.merge(failures.filter { nodes.contains($0.key) }) { first, _ in first }
        state.graph = graph
        state.plan = graph.plan()
        apply(state.plan, to: &state.reports)
        hostInfo.update(state.reports)
    }

    private func apply(_ plan: DependencyGraph.Plan, to reports: inout [ModuleReport]) {
        let planned = Set(plan.order)
        for index in reports.indices {
            if let blocked = plan.blocked[reports[index].name] {
                reports[index].outcome = ModuleReport.Outcome(blocked.state, blocked.reason)
            } else if planned.contains(reports[index].name) {
                reports[index].outcome = .active
            }
        }
    }

    /// Finds, checks and describes an enabled module's library without running any of it:
    /// trust (owner, modes, file type), the optional sha256 pin, then the descriptor (ABI, SDK
    /// version and compiler, name).
    ///
    /// Typed throws rather than a `Result`: a `Result<_, LoadError>` made at start costs a
    /// scan of every loaded conformance, to learn that `LoadError` is an `Error`.
    func inspect(_ entry: ModuleEntry, hashing: Bool) throws(LoadError) -> Inspected {
        try Self.inspectLibrary(name: entry.name, path: try locate(entry), pinned: entry.sha256, hashing: hashing)
    }

    /// Checks and describes the library at `path` for module `name` (see ``inspect(_:hashing:)``).
    static func inspectLibrary(name: String, path: String, pinned: String? = nil, hashing: Bool = false) throws(LoadError) -> Inspected {
        func refuse(_ kind: LoadError.Kind, _ cause: String) -> LoadError {
            LoadError(kind: kind, module: name, path: path, cause: cause)
        }
        func refuse(_ kind: LoadError.Kind, _ text: HostText) -> LoadError {
            LoadError(kind: kind, module: name, path: path, text: text)
        }
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: Self.maximumLibrarySize)
        } catch {
            throw error == .missing ? refuse(.missingFile, missingAdvice(name, path: path)) : refuse(.untrusted, error.text(for: path))
        }
        var digest: String?
        if hashing || pinned != nil {
            switch SHA256File.hex(of: file) {
            case .failure(let problem): throw refuse(.untrusted, problem.message)
            case .success(let hex): digest = hex
            }
            if let pinned, pinned.lowercased() != digest {
                throw refuse(
                    .checksumMismatch,
                    HostText(
                        "load.checksum",
                        "has sha256 %@, but modules.json pins %@; if the new library is the one you want, update 'sha256' (see 'modhost modules --json')",
                        [.plain(digest ?? "?"), .plain("\(Escaped(pinned))")]))
            }
        }
        let descriptor: ModuleDescriptor
        do {
            descriptor = try DescriptorReader.read(fileDescriptor: file.descriptor)
        } catch {
            switch error {
            case .notELF(let what):
                throw refuse(
                    .notLoadable,
                    HostText("load.not.elf", "%@; a module library is a shared object built with 'swift build'", [.plain(what)]))
            case .missing:
                throw refuse(
                    .noDescriptor,
                    HostText(
                        "load.no.descriptor",
                        "has no module descriptor (section '%@'); add a module.manifest to its target, apply the kit's ModuleDescriptorPlugin, and rebuild it%@",
                        [.plain(DescriptorReader.sectionName), .text(rebuildAdvice(name, path: path))]))
            case .malformed(let what):
                throw refuse(.malformedDescriptor, HostText("load.malformed", "has a malformed module descriptor: it %@", [.plain(what)]))
            }
        }
        // The SDK first: a library from before SDK 1.0.0 also speaks an older ABI, and the
        // release it was built against says more about what to do.
        if let problem = SDKCompatibility.problem(with: descriptor, rebuild: { rebuildAdvice(name, path: path) }) {
            throw refuse(.sdkMismatch, problem)
        }
        guard descriptor.abiVersion == ModuleKitABI.version else {
            throw refuse(
                .abiMismatch,
                HostText(
                    "load.abi", "speaks module ABI version %@, the host speaks %@; rebuild it against this host's kit%@",
                    [.plain("\(descriptor.abiVersion)"), .plain("\(ModuleKitABI.version)"), .text(rebuildAdvice(name, path: path))]))
        }
        guard descriptor.name == name else {
            throw refuse(
                .nameMismatch,
                HostText(
                    "load.name", "holds module '%@', not '%@'; fix 'name' or 'library' in modules.json",
                    [.plain(descriptor.name), .plain(name)]))
        }
        return Inspected(path: path, file: file, descriptor: descriptor, sha256: digest)
    }

    /// How to rebuild module `name`: in this checkout when its library lies in the build folder
    /// `modhost` runs from, else in the module's own package.
    static func rebuildAdvice(_ name: String, path: String) -> HostText {
        isInHostBuildFolder(path)
            ? HostText("load.rebuild.checkout", "; in this checkout: 'swift build --product %@'", [.plain(name)])
            : HostText("load.rebuild.package", "; in its package: 'swift build --product %@'", [.plain(name)])
    }

    private static func missingAdvice(_ name: String, path: String) -> HostText {
        isInHostBuildFolder(path)
            ? HostText(
                "load.missing.checkout",
                "does not exist; build it (in this checkout: 'swift build --product %@') or set 'library' in modules.json",
                [.plain(name)])
            : HostText(
                "load.missing.package", "does not exist; build it (in its package: 'swift build --product %@') or correct the path",
                [.plain(name)])
    }

    private static func isInHostBuildFolder(_ path: String) -> Bool {
        // Through symlinks: .build/debug is one to .build/<triple>/debug.
        FilePaths.resolved(FilePaths.folder(of: path)) == FilePaths.resolved(ProcessLocation.executableFolder)
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

    private func disabledReason(_ entry: ModuleEntry) -> HostText {
        if options.disable.containsModule(entry.name) {
            return HostText("reason.disabled.flag", "disabled by --disable")
        }
        return HostText("reason.disabled.file", "disabled in modules.json")
    }

    /// The library's path: `library` from modules.json, else `lib<Name>.so` in the search paths.
    private func locate(_ entry: ModuleEntry) throws(LoadError) -> String {
        if let library = entry.library {
            // The file's folder however `--config` was written: a relative path is taken from
            // the current folder first ("modules.json" → "/srv/app").
            let folder = FilePaths.folder(of: FilePaths.absolute(configuration.path, relativeTo: FilePaths.currentFolder))
            return FilePaths.absolute(library, relativeTo: folder)
        }
        let file = "lib\(entry.name).so"
        let candidates = configuration.searchPaths.map { FilePaths.absolute(file, relativeTo: $0) }
        var status = stat()
        if let found = candidates.first(where: { lstat($0, &status) == 0 }) {
            return found
        }
        let searched = configuration.searchPaths.map { "'\(Escaped($0))'" }.joined(separator: ", ")
        throw
            LoadError(
                kind: .missingFile, module: entry.name, path: file,
                text: HostText(
                    "load.not.found", "was not found in the search paths (%@)%@",
                    [.plain(searched), .text(Self.notFoundAdvice(entry.name, in: configuration.searchPaths))]))
    }

    /// What to do about a module library no search path holds, and only what is true: the
    /// module of that name in a search path when the name looks mistyped; how to build it when
    /// this checkout has such a module; else to give its path.
    static func notFoundAdvice(_ name: String, in searchPaths: [String]) -> HostText {
        let present = searchPaths.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { file -> String? in
                file.hasPrefix("lib") && file.hasSuffix(".so") && file.count > 6 ? String(file.dropFirst(3).dropLast(3)) : nil
            }
        }
        if let near = nearest(to: name, among: present.filter { $0 != name }) {
            return HostText(
                "load.near", "; did you mean '%@' (lib%@.so is there)? Fix 'name' in modules.json", [.plain(near), .plain(near)])
        }
        let checkout = URL(fileURLWithPath: KitLocation.builtKitFolder).deletingLastPathComponent().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Plugins/\(name)/Package.swift").path) {
            return HostText(
                "load.build.checkout", "; build it (in this checkout: 'swift build --product %@') or set 'library' in modules.json",
                [.plain(name)])
        }
        return HostText("load.set.library", "; set 'library' in modules.json to the path of its lib%@.so", [.plain(name)])
    }

    /// With `--only`, the named modules plus every provider they require, transitively.
    private func selection(inspected: [String: Inspected]) -> Set<String> {
        guard let only = options.only else { return Set(inspected.keys) }
        var providers: [String: String] = [:]
        for entry in configuration.modules {
            for route in inspected[entry.name]?.descriptor.provides ?? [] where providers[route] == nil {
                providers[route] = entry.name
            }
        }
        var selected: Set<String> = []
        var pending = only.compactMap { configuration.entry(named: $0)?.name }
        while let name = pending.popLast() {
            guard selected.insert(name).inserted else { continue }
            pending += (inspected[name]?.descriptor.requires ?? []).compactMap { providers[$0] }
        }
        return selected.intersection(inspected.keys)
    }

    /// Names the module that would provide `route` when it is not running: the enabled module
    /// whose descriptor provides it, or the disabled one whose library's descriptor does.
    static func explainMissing(_ route: String, reports: [ModuleReport], disabled: [String: ModuleDescriptor]) -> HostText? {
        for report in reports {
            let provides = report.provides.contains(route) || disabled[report.name]?.provides.contains(route) == true
            guard provides else { continue }
            let reason = report.reasonText ?? .plain("")
            switch report.state {
            case .disabled: return HostText("reason.provider.disabled", "%@ is %@", [.plain(report.name), .text(reason)])
            case .failed: return HostText("reason.provider.failed", "%@ failed: %@", [.plain(report.name), .text(reason)])
            case .active, .skipped: return nil
            }
        }
        return nil
    }

    /// Tells the locator why routes declared by loaded modules have no working provider, so
    /// that a module resolving them gets the reason.
    func markUnavailableRoutes(_ state: Snapshot) {
        // Keyed by the route's type, as the locator keys it (a Set<RouteKey> would cost a
        // scan of every loaded conformance).
        var declared: [ObjectIdentifier: RouteKey] = [:]
        for module in state.loaded.values {
            for route in module.manifest.declaredRoutes { declared[route.id] = route }
        }
        let planned = Set(state.plan.order)
        for route in declared.values {
            if let provider = state.plan.providers[route.name] {
                if let blocked = state.plan.blocked[provider] {
                    locator.markUnavailable(route, reason: "'\(provider)' \(blocked.state.rawValue): \(blocked.reason.description)")
                } else if !planned.contains(provider) && provider != Self.hostName {
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
}
