import Contracts
import Glibc
import HostIsolation
import HostLoading
import HostModel
import HostProcesses
import HostSandbox
@_spi(Host) import ModuleKit
import Synchronization

// A module's own process: started (or taken from those started early), greeted with what the
// host made for its sandbox, and linked. Its hello is read on a thread of its own, so that the
// host loads its other modules while the process starts (see `load`).
extension HostRuntime {
    /// One process of module `entry`: started, greeted (in the person's language), and its link made.
    func spawnProcess(
        _ entry: ModuleEntry, manifest: ModuleManifest, offered: [String], library: InspectedLibrary
    ) -> Result<IsolatedModule.Launched, HostTextError> {
        beginSpawn(entry, manifest: manifest, offered: offered, library: library).flatMap(finishSpawn)
    }

    /// A module's process started and greeted, its hello read on a thread of its own while the
    /// host goes on (it loads its other modules meanwhile): ``finishSpawn(_:)`` waits for it.
    struct PendingSpawn {
        let entry: ModuleEntry
        let manifest: ModuleManifest
        let offered: [String]
        let process: ModuleProcess
        let greeting: ModuleProcess.Greeting
        /// The language its hello told it.
        let told: String?
    }

    /// Starts module `entry`'s process (or takes the one started early) and says the host's
    /// hello, with its library, filter and ruleset, made for what `library` declares (a live
    /// restart's new library, not the one running); the process's own hello is read aside.
    func beginSpawn(
        _ entry: ModuleEntry, manifest: ModuleManifest, offered: [String], library: InspectedLibrary
    ) -> Result<PendingSpawn, HostTextError> {
        let process: ModuleProcess
        let greeting: ModuleProcess.Greeting
        var told: String?
        ProcessScope.keepFromModules()
        StrayProcesses.adopt()
        do throws(ModuleProcess.StartError) {
            // One started early that ended meanwhile (killed from outside) gives way to a new one.
            if let early = options.earlyProcesses.take(entry.name), !early.hasEnded {
                early.afterEnd = afterEnd(of: entry)
                process = early
            } else {
                process = try startProcess(of: entry)
            }
            let audit = sandboxAudit(of: entry.name)
            // Its filter and its Landlock ruleset, made here while it starts (see HostRuntime+Sandbox.swift).
            let capabilities = library.descriptor.capabilities.narrowed(denying: entry.deny)
            let program =
                entry.sandbox == .off || audit != nil ? nil : Sandbox.filterProgram(network: capabilities.network, exec: capabilities.exec)
            defer { if let program { close(program) } }
            let ruleset = preparedRuleset(for: entry, library: library, capabilities: capabilities, audit: audit != nil)
            defer { if let ruleset { close(ruleset.descriptor) } }
            var passed: [(name: String, descriptor: Int32)] = [(Hello.library, library.file.descriptor)]
            if let program { passed.append((Hello.filter, program)) }
            if let ruleset { passed.append((Hello.ruleset, ruleset.descriptor)) }
            let hello = Hello(
                hostVersion: Self.version, sdkVersion: ModuleKitABI.sdkVersion, contracts: [("Contracts", ModuleKitABI.sdkVersion)],
                passes: passed.map(\.name), routes: offered, language: locale.current)
            greeting = process.greetAside(hello, passing: passed.map(\.descriptor), helloLimit: entry.timeout) {
                [logger] refusals, granted, pid in
                if let audit {
                    audit.watch(refusals, granted: granted)
                } else {
                    // What a ruleset made here grants is known here; else the process says.
                    SandboxRefusals.watch(refusals, module: entry.name, pid: pid, granted: ruleset?.granted ?? granted) { line in
                        logger.warn(line)
                    }
                }
            }
            told = hello.language
        } catch {
            return .failure(HostTextError(Self.startProblem(error)))
        }
        return .success(PendingSpawn(entry: entry, manifest: manifest, offered: offered, process: process, greeting: greeting, told: told))
    }

    /// Waits for `pending`'s hello, then makes the link its routes are served over.
    func finishSpawn(_ pending: PendingSpawn) -> Result<IsolatedModule.Launched, HostTextError> {
        do throws(ModuleProcess.StartError) {
            try pending.greeting.wait()
        } catch {
            // Ended already when its hello failed; ended here when the wait itself did.
            _ = pending.process.end(grace: .seconds(1))
            return .failure(HostTextError(Self.startProblem(error)))
        }
        let (entry, manifest, offered, process) = (pending.entry, pending.manifest, pending.offered, pending.process)
        let resolver = locator.resolver(for: manifest, access: access)
        var routes: [String: @Sendable () throws -> any RouteDispatching] = [:]
        let name = entry.name
        for route in offered {
            guard let bridge = RouteBridge.all[route] else { continue }
            // Weak, as `spawn` above: the link that keeps these is kept by this runtime.
            routes[route] = { [weak self] in
                let dispatcher: any RouteDispatching
                if route == Self.settingsRouteName, let self {
                    dispatcher = SettingsRouteDispatcher(
                        target: SettingsServedToProcess(
                            module: name, settings: try resolver.resolve((any SettingsRoute).self), kept: isolatedSettings, logger: logger))
                } else {
                    dispatcher = try bridge.dispatcher(resolver)
                }
                return self?.screenRelay?.relaying(dispatcher) ?? dispatcher
            }
        }
        routes[IsolatedModule.screens] = { [weak self] in
            guard let relay = self?.screenRelay else { throw NoScreens() }
            return relay
        }
        // Only the module that chooses the person's language may tell the host one.
        if IsolatedModule.choosesLanguage(manifest) {
            routes[IsolatedModule.language] = { [locale] in PersonsLanguage(locale: locale) }
        }
        let pid = process.pid
        let owned = OwnedProcess(process)
        let link = RouteLink(
            channel: process.channel, peer: "module '\(name)'", routes: { [routes] in routes[$0] }, callLimit: entry.timeout,
            cpuBudget: entry.sandbox == .off ? nil : Self.cpuBudget(entry.limits, pid: pid),
            onFailure: { [logger] error in
                // This process's end, not the module's current one (a restart's may differ).
                let end = owned.end(grace: .seconds(1))
                let how = end.map { "; its process (\(pid)) \($0.description)" } ?? ""
                logger.error("module '\(name)' is unavailable: \(Self.reason(of: error))\(how)")
            },
            onProblem: { [logger] line in logger.warn(line) })
        link.watchForEnd(ofProcess: pid)
        return .success((owned, link, pending.told))
    }

    /// What a module's process may burn in a command or a screen, its whole tree counted:
    /// each waits for the person as long as it likes, so a time limit cannot serve there.
    static func cpuBudget(_ limits: ModuleLimits, pid: pid_t) -> CPUBudget {
        CPUBudget(
            limit: .seconds(limits.cpuSeconds ?? ModuleLimits.cpuSecondsByDefault), setting: "limits.cpuSeconds in modules.json",
            callNames: [
                "\(IsolatedModule.control).command": "a command", "\(IsolatedModule.control).screen": "a screen",
                "\(IsolatedModule.screens).show": "a screen",
            ]
        ) { Descendants.cpuTime(ofTreeOf: pid) }
    }

    /// Module `entry`'s process, started; once it has ended, its temporary folder is removed
    /// (its own way out leaves it when its sandbox watches removals, and a crash always does).
    private func startProcess(of entry: ModuleEntry) throws(ModuleProcess.StartError) -> ModuleProcess {
        let process = try ModuleProcess(
            spawning: .host(Self.moduleHostArguments(entry.name, options: options)), showing: Self.showModuleProcessOutput)
        process.afterEnd = afterEnd(of: entry)
        return process
    }

    /// What a module's process writes outside a loan of the terminal (a module's `print` on a
    /// thread of its own, its library's own messages, the process's warnings): shown on this
    /// process's standard error, with its control characters made visible, and held with the
    /// host's own while the app is full screen.
    static let showModuleProcessOutput: @Sendable (String) -> Void = { line in
        // A piece without its line break (the last one, a long line's) is a line of its own.
        StandardError.write(line.hasSuffix("\n") ? line : line + "\n")
    }

    /// What follows the end of a process of module `entry`: its temporary folder removed.
    private func afterEnd(of entry: ModuleEntry) -> @Sendable (pid_t) -> Void {
        let folder = options.dataFolder + "/" + entry.name
        return { pid in FolderTree.remove(ModuleProcess.temporaryFolderName(of: pid), inFolderAt: folder) }
    }

    /// The command line of module `name`'s process, whenever it is started: the routes it may
    /// call come with the host's hello.
    static func moduleHostArguments(_ name: String, options: RuntimeOptions) -> [String] {
        options.moduleHostOptions + [moduleHostCommand, name]
    }
}
