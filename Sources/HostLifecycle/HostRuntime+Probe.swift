import HostGraph
import HostLoading
import HostModel
@_spi(Host) import ModuleKit

/// The child side of `check`'s probe: loads each named module here, in this process.
extension HostRuntime {
    /// Loads each module of `names` with the run's steps (``open(_:_:)``, then
    /// ``configure(_:_:_:everyLocale:)`` with every locale's strings), then runs its `register`,
    /// where a module checks what its configuration needs (a key, a file), as a start would:
    /// under the guard, with the same time limit. It tells, through `write`, that it begins and
    /// then that it loaded or why not (``ProbeMessage``); then each module that declares a
    /// route under another identity than its provider's (only visible with both libraries in
    /// one process). The data folder is the parent's throwaway one: `check` changes nothing.
    package func probe(_ names: [String], write: (String) -> Void) {
        var loaded: [RouteIdentity.Declarer] = []
        defer {
            let conflicts = RouteIdentity.conflicts(among: loaded, hostRoutes: Self.hostRoutes, hostName: Self.hostName)
            for declarer in loaded {
                if let reason = conflicts[declarer.name] {
                    write(ProbeMessage.conflict(module: declarer.name, reason: reason.render(strings)).line)
                }
            }
        }
        for name in names {
            guard let entry = configuration.entry(named: name) else { continue }
            write(ProbeMessage.begin(module: entry.name).line)
            let problems = probe(entry, write: write, loaded: &loaded)
            for problem in problems { write(ProbeMessage.problem(module: entry.name, reason: problem.render(strings)).line) }
            if !problems.isEmpty { write(ProbeMessage.failed(module: entry.name).line) }
        }
    }

    /// Loads `entry` and runs its `register` and its own check of its resources, telling each
    /// phase; its problems, or none when it loaded (then the `ok` line is written).
    private func probe(_ entry: ModuleEntry, write: (String) -> Void, loaded: inout [RouteIdentity.Declarer]) -> [HostText] {
        let inspected: InspectedLibrary
        let module: LoadedModule
        let strings: ModuleStrings
        let started = ContinuousClock.now
        do {
            inspected = try inspect(entry, hashing: false)
            module = try open(entry, inspected)
            write(ProbeMessage.phase(module: entry.name, phase: .configuration).line)
            strings = try configure(module, entry, inspected, everyLocale: true)
        } catch let error as ConfigurationError {
            // Every problem of its `config`, one line each.
            return error.problems.map { .plain(Redaction.redact($0)) }
        } catch {
            return [Self.loadProblem(error)]
        }
        let spent = ContinuousClock.now - started
        let context = self.context(
            named: entry.name, resolver: locator.resolver(for: module.manifest, access: access), strings: strings,
            libraryFolder: module.folder)
        write(ProbeMessage.phase(module: entry.name, phase: .register).line)
        do {
            try moduleGuard.run(entry.name, .register, library: inspected.path, identity: inspected.identity, timeout: entry.timeout) {
                try module.instance.register(ModuleRegistry(context: context, locator: locator), configuration: entry.config)
            }
        } catch {
            return [HostText("reason.threw.register", "threw in register: %@", [.plain("\(error)")])]
        }
        loaded.append(RouteIdentity.Declarer(module, named: entry.name))
        write(ProbeMessage.phase(module: entry.name, phase: .checkResources).line)
        let resources = moduleGuard.run(
            entry.name, .checkResources, library: inspected.path, identity: inspected.identity, timeout: entry.timeout
        ) { module.instance.checkResources() }
        guard resources.isEmpty else { return resources.map { .plain(Redaction.redact($0)) } }
        write(ProbeMessage.loaded(module: entry.name, files: strings.tables.count, nanoseconds: Int(spent / .nanoseconds(1))).line)
        return []
    }
}
