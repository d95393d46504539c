@_spi(Host) import ModuleKit

/// The child side of `check`'s probe: loads each named module here, in this process.
extension HostRuntime {
    /// Loads each module of `names` (checks, handshake, instance, config, strings) and tells,
    /// through `write`, that it begins and then that it loaded or why not (``ProbeMessage``);
    /// then each module that declares a route under another identity than its provider's (only
    /// visible with both libraries in one process).
    func probe(_ names: [String], write: (String) -> Void) {
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
                let timeout = entry.startTimeout ?? ModuleGuard.defaultTimeout
                let module = try moduleGuard.run(name, .load, library: inspected.path, identity: inspected.identity, timeout: timeout) {
                    () throws(LoadError) -> LoadedModule in
                    try loader.load(name: entry.name, file: inspected.file, descriptor: inspected.descriptor)
                }
                let (files, spent) = try moduleGuard.run(
                    name, .configuration, library: inspected.path, identity: inspected.identity, timeout: timeout
                ) {
                    try module.instance.validateConfiguration(entry.config)
                    let started = ContinuousClock.now
                    let files = try stringsInEveryLocale(of: module).tables.count
                    return (files, ContinuousClock.now - started)
                }
                loaded.append(RouteIdentity.Declarer(module, named: entry.name))
                write(ProbeMessage.loaded(module: entry.name, files: files, nanoseconds: Int(spent / .nanoseconds(1))).line)
            } catch let error as LoadError {
                write(
                    ProbeMessage.problem(module: entry.name, reason: Self.libraryProblem(error.path, error.causeText).render(strings)).line)
            } catch let error as StringsError {
                write(ProbeMessage.problem(module: entry.name, reason: error.text.render(strings)).line)
            } catch {
                write(ProbeMessage.problem(module: entry.name, reason: "\(error)").line)
            }
        }
    }
}

extension HostRuntime {
    /// `library 'PATH' CAUSE`, how a problem with a module's library is said.
    static func libraryProblem(_ path: String, _ cause: HostText) -> HostText {
        HostText("reason.library", "library '%@' %@", [.plain(Escaped(path).description), .text(cause)])
    }

    /// Module `name`'s strings (none when it has none or did not load).
    func strings(of name: String) -> ModuleStrings {
        read { $0.strings[name] } ?? .none(locale: locale)
    }

    /// Runs `body`, code of module `name` that the host calls outside the lifecycle (a command).
    func guarded<T>(_ name: String, _ phase: GuardPhase, _ body: () throws -> T) rethrows -> T {
        let (path, identity) = read { ($0.loaded[name]?.path, $0.inspected[name]?.identity) }
        return try moduleGuard.run(name, phase, library: path, identity: identity, body)
    }
}
