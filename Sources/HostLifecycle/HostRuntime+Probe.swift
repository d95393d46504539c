import HostGraph
@_spi(Host) import ModuleKit

/// The child side of `check`'s probe: loads each named module here, in this process.
extension HostRuntime {
    /// Loads each module of `names` with the run's two steps (``open(_:_:)``, then
    /// ``configure(_:_:_:everyLocale:)`` with every locale's strings) and tells, through
    /// `write`, that it begins and then that it loaded or why not (``ProbeMessage``); then each
    /// module that declares a route under another identity than its provider's (only visible
    /// with both libraries in one process).
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
                let files = try configure(module, entry, inspected, everyLocale: true).tables.count
                let spent = ContinuousClock.now - started
                loaded.append(RouteIdentity.Declarer(module, named: entry.name))
                write(ProbeMessage.loaded(module: entry.name, files: files, nanoseconds: Int(spent / .nanoseconds(1))).line)
            } catch {
                write(ProbeMessage.problem(module: entry.name, reason: Self.loadProblem(error).render(strings)).line)
            }
        }
    }
}
