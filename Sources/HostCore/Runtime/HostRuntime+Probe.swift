@_spi(Host) import ModuleKit

/// The child side of `check`'s probe: loads each named module here, in this process.
extension HostRuntime {
    /// Loads each module of `names` (checks, handshake, instance, config, strings) and writes
    /// `begin NAME` and then `ok NAME` or `problem NAME TEXT` for each, through `write`; then
    /// `conflict NAME TEXT` for each module that declares a route under another identity than
    /// its provider's (only visible with both libraries in one process).
    func probe(_ names: [String], write: (String) -> Void) {
        var loaded: [RouteIdentity.Declarer] = []
        defer {
            let conflicts = RouteIdentity.conflicts(among: loaded, hostRoutes: Self.hostRoutes, hostName: Self.hostName)
            for declarer in loaded {
                if let reason = conflicts[declarer.name] {
                    write("conflict \(declarer.name) \(Escaped.escapingControlCharacters(reason.render(strings)))\n")
                }
            }
        }
        for name in names {
            guard let entry = configuration.entry(named: name) else { continue }
            write("begin \(entry.name)\n")
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
                let nanoseconds = spent / .nanoseconds(1)
                loaded.append(RouteIdentity.Declarer(module, named: entry.name))
                // `ok NAME FILES NANOSECONDS`: the strings files read, and how long that took.
                write("ok \(entry.name) \(files) \(Int(nanoseconds))\n")
            } catch let error as LoadError {
                write("problem \(entry.name) \(Self.libraryProblem(error.path, error.causeText).render(strings))\n")
            } catch let error as StringsError {
                write("problem \(entry.name) \(Escaped.escapingControlCharacters(error.text.render(strings)))\n")
            } catch {
                write("problem \(entry.name) \(Escaped.escapingControlCharacters("\(error)"))\n")
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
