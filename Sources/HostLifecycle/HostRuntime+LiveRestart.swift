import Glibc
import HostGraph
import HostIsolation
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

// Live restart: a module in a process of its own whose library is replaced on disk is started
// again with the new file, while the app stays open. The new file is checked as any library;
// a new process runs it and starts the module; then the module's routes go to it (the proxies
// keep their endpoint, whose link changes) and the old process is stopped once the calls it
// serves are done. Nothing is unloaded from the host. What fails leaves the old process serving
// and says why. What the module keeps is what it stored; what it loses is its memory.
extension HostRuntime {
    /// Watches the library of each module that runs in a process of its own, and restarts the
    /// module with the new file when one is put in place (``replaceLibrary(of:)``).
    ///
    /// - Returns: The watcher, to stop when the app ends; `nil` when no module runs apart or
    ///   the system gives no watcher.
    package func watchIsolatedLibraries() -> FolderWatcher? {
        let libraries = read { state in
            state.isolated.keys.sorted().compactMap { name in state.inspected[name].map { (name: name, path: $0.path) } }
        }
        guard !libraries.isEmpty else { return nil }
        let watcher = FolderWatcher { [weak self] folder, file in
            for library in libraries where library.path == folder + "/" + file { self?.replaceLibrary(of: library.name) }
        }
        guard let watcher else {
            logger.warn("the libraries of modules in a process of their own are not watched: the system gives no inotify instance")
            return nil
        }
        for library in libraries where !watcher.watch(Self.fileName(of: library.path), in: FilePaths.folder(of: library.path)) {
            logger.warn("module '\(library.name)': its library's folder cannot be watched; a new library is taken at the next start")
        }
        return watcher
    }

    /// Runs module `name` on the library now at its path, in a new process, in place of the one
    /// that serves it; or says why not and leaves that one serving.
    package func replaceLibrary(of name: String) {
        guard let module = isolatedModule(named: name), let entry = configuration.entry(named: name),
            let before = read({ $0.inspected[name] }), isRunning
        else { return }
        let inspected: InspectedLibrary
        do {
            inspected = try inspect(entry, hashing: options.hashLibraries)
        } catch {
            return refuse(name, path: before.path, Self.loadProblem(error))
        }
        // Written again with the same bytes and times, or put back as it was: nothing to do.
        guard inspected.identity != module.currentLibrary.identity else { return }
        let (old, new) = (before.descriptor, inspected.descriptor)
        guard new.provides == old.provides, new.requires == old.requires, new.uses == old.uses else {
            return refuse(
                name, path: inspected.path,
                HostText(
                    "",
                    "declares other routes than the running one; the app takes it at its next start",
                    []))
        }
        // At an idle moment: no call of the module under way (a screen of its own is one).
        while module.link.isCalling && isRunning { usleep(50_000) }
        let offered = read { state in offeredRoutes(module.manifest, plan: state) }
        let spawned: IsolatedModule.Launched
        switch spawnProcess(entry, manifest: module.manifest, offered: offered, library: inspected) {
        case .success(let made): spawned = made
        case .failure(let problem): return refuse(name, path: inspected.path, problem.text)
        }
        // Started in the person's language (its hello says it), as the process it replaces runs in.
        do throws(RouteCallError) {
            try RemoteObject.route(IsolatedModule.control, on: spawned.link).call("start", RouteArguments())
        } catch {
            spawned.link.close()
            _ = spawned.process.end(grace: .seconds(1))
            return refuse(name, path: inspected.path, HostText("", "did not start: %@", [.plain("\(error)")]))
        }
        // The app may have ended meanwhile: its modules were stopped, this process with them.
        guard isRunning else {
            spawned.link.close()
            _ = spawned.process.end(grace: .seconds(1))
            return
        }
        let previous = module.replace(library: inspected, process: spawned.process, link: spawned.link)
        module.tellLanguage(after: spawned)
        module.takeLanguage()
        tookNewLibrary(name, inspected, processID: spawned.process.pid)
        logger.warn(
            "module '\(name)': now runs its new library '\(EscapedPath(inspected.path))' (version \(Escaped(new.version))) "
                + "in process \(spawned.process.pid); process \(previous.process.pid) stops")
        // The old process ends once the calls it serves are done (a screen shown from it); here,
        // when no thread can wait for them.
        let retire: @Sendable () -> Void = { [logger] in
            while previous.link.isCalling { usleep(50_000) }
            try? previous.link.lastCall(IsolatedModule.control, "stop")
            previous.link.close()
            if let end = previous.process.end(grace: .seconds(2)), end != .exited(0) {
                logger.warn("module '\(name)': its old process \(end.description) when it was stopped")
            }
        }
        if !DetachedThread.start(named: "modhost-retire", retire) { retire() }
    }

    /// The routes a module's process may call here: those it declares that the host or a
    /// planned module provides.
    func offeredRoutes(_ manifest: ModuleManifest, plan: Snapshot) -> [String] {
        (manifest.requires + manifest.uses).map(\.name).filter { route in
            plan.plan.providers[route] != nil || Self.hostRouteNames.contains(route)
        }
    }

    private static func fileName(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    private func refuse(_ name: String, path: String, _ reason: HostText) {
        logger.warn(
            "module '\(name)': its new library '\(EscapedPath(path))' is not used: \(reason.description); the running one goes on serving")
    }
}
