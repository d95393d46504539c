import HostGraph
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
            do {
                let inspected = try inspect(entry, hashing: false)
                let module = try open(entry, inspected)
                let started = ContinuousClock.now
                let strings = try configure(module, entry, inspected, everyLocale: true)
                let files = strings.tables.count
                let spent = ContinuousClock.now - started
                let context = self.context(
                    named: entry.name, resolver: locator.resolver(for: module.manifest, access: access), strings: strings,
                    libraryFolder: module.folder)
                do {
                    try moduleGuard.run(
                        entry.name, .register, library: inspected.path, identity: inspected.identity, timeout: entry.timeout
                    ) {
                        try module.instance.register(ModuleRegistry(context: context, locator: locator), configuration: entry.config)
                    }
                } catch {
                    let reason = HostText("reason.threw.register", "threw in register: %@", [.plain("\(error)")])
                    write(ProbeMessage.problem(module: entry.name, reason: reason.render(self.strings)).line)
                    continue
                }
                loaded.append(RouteIdentity.Declarer(module, named: entry.name))
                write(ProbeMessage.loaded(module: entry.name, files: files, nanoseconds: Int(spent / .nanoseconds(1))).line)
            } catch {
                write(ProbeMessage.problem(module: entry.name, reason: Self.loadProblem(error).render(strings)).line)
            }
        }
    }
}
