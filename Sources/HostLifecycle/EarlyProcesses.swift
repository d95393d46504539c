import Glibc
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

/// Module processes started before their module's load phase and not yet greeted, by module
/// name (without regard to case, as the command line names modules): each is taken at its
/// module's load phase, and those no module took are ended after it, or when the run ends
/// before it.
package final class EarlyProcesses: @unchecked Sendable {
    // `waiting` is touched only with `lock` held.
    private let lock = RecursiveLock()
    private var waiting: [ModuleName: (name: String, process: ModuleProcess)] = [:]

    package init() {}

    func put(_ name: String, _ process: ModuleProcess) {
        lock.withLock { waiting[ModuleName(name)] = (name, process) }
    }

    func take(_ name: String) -> ModuleProcess? {
        lock.withLock { waiting.removeValue(forKey: ModuleName(name))?.process }
    }

    func has(_ name: String) -> Bool {
        lock.withLock { waiting[ModuleName(name)] != nil }
    }

    /// The module names and process ids waiting, by name.
    var waitingProcesses: [(name: String, pid: pid_t)] {
        lock.withLock { waiting.values.map { ($0.name, $0.process.pid) }.sorted { $0.name < $1.name } }
    }

    /// Ends each process no module took: it reads the end of its link before any hello, and
    /// ends without having opened anything.
    package func endUntaken(told: (String, ModuleProcess) -> Void = { _, _ in }) {
        let untaken = lock.withLock {
            defer { waiting = [:] }
            return waiting.values.sorted { $0.name < $1.name }
        }
        // Every link ended first, so that they all end at once; then each reaped.
        for (_, process) in untaken { shutdown(process.channel.descriptor, Int32(SHUT_RDWR)) }
        for (name, process) in untaken {
            _ = process.end(grace: .seconds(2))
            told(name, process)
        }
    }
}

// A module's process is started as soon as the run is known to need it: its own start, most of
// it the dynamic linker's, then runs beside the host's reading of modules.json and its checks.
// A child does nothing before the host's hello, which carries the checked library.
extension HostRuntime {
    /// Starts the process of each module `names` puts in a process of its own for this run
    /// (`--isolate`), before modules.json is read; one modules.json does not hold or enable is
    /// ended unused.
    package static func startProcessesEarly(named names: [String], options: RuntimeOptions) {
        for name in names where !options.disable.containsModule(name) {
            _ = startEarly(name, options: options)
        }
    }

    /// Starts the process of each module `configuration` runs in a process of its own, with
    /// this run's flags applied (the runtime applies them again when it is made); the names
    /// and process ids of those it started.
    @discardableResult
    package static func startProcessesEarly(for configuration: HostConfiguration, options: RuntimeOptions) -> [(String, pid_t)] {
        var started: [(String, pid_t)] = []
        for entry in configuration.modules {
            let enabled = (entry.enabled || options.enable.containsModule(entry.name)) && !options.disable.containsModule(entry.name)
            let isolated = entry.isolation == .process || options.isolate.containsModule(entry.name)
            if enabled && isolated, let pid = startEarly(entry.name, options: options) { started.append((entry.name, pid)) }
        }
        return started
    }

    /// Module `name`'s process, started now; its id, or `nil` when none was started.
    private static func startEarly(_ name: String, options: RuntimeOptions) -> pid_t? {
        // Only the host starts module processes (a module's own process runs its module there).
        guard options.parentLink == nil, !options.earlyProcesses.has(name) else { return nil }
        if let only = options.only, !only.containsModule(name) { return nil }
        // No process is started while the kit fails its check: its dynamic linker would load
        // the kit from where another user could have put code, before any sandbox.
        guard KitOrigin.problem == nil else { return nil }
        ProcessScope.keepFromModules()
        StrayProcesses.adopt()
        // One that fails to start here is started again, and its failure said, at the load phase.
        guard
            let process = try? ModuleProcess(
                spawning: .host(moduleHostArguments(name, options: options)), showing: showModuleProcessOutput)
        else {
            return nil
        }
        options.earlyProcesses.put(name, process)
        return process.pid
    }
}
