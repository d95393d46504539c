import HostLoading
import HostModel
import HostProcesses
import ModuleKit
import Synchronization

// The runtime's phases: plan (config and descriptors, no module code) → load (dlopen, the
// handshake, configs, strings) → start (register, start, seal) → stop. Each phase is a value
// that only the previous phase's value can make (their initializers are private to this
// file), so an order such as "start before load" cannot be written. Each step takes the last
// value out under the lock, runs the module code with the lock released, and publishes the
// new value: the signal path, and readers such as `modules`, never wait on module code.

/// Descriptors read and checked, start order planned; no module code has run.
package struct Planned: Sendable {
    fileprivate(set) var snapshot: HostRuntime.Snapshot
    fileprivate init(_ snapshot: HostRuntime.Snapshot) { self.snapshot = snapshot }
}

/// Libraries opened, modules created, configs checked, strings read.
package struct Loaded: Sendable {
    fileprivate(set) var snapshot: HostRuntime.Snapshot
    fileprivate init(_ snapshot: HostRuntime.Snapshot) { self.snapshot = snapshot }
}

/// Modules registered and started, the locator sealed.
package struct Started: Sendable {
    fileprivate(set) var snapshot: HostRuntime.Snapshot
    fileprivate init(_ snapshot: HostRuntime.Snapshot) { self.snapshot = snapshot }
}

/// What the runtime's lock guards.
package struct RuntimeState: Sendable {
    package enum Stage: Sendable {
        case initial
        case planned(Planned)
        case loaded(Loaded)
        case started(Started)
        case stopped

        /// How far the runtime has come, to compare with the phase asked for.
        var reached: Phase? {
            switch self {
            case .initial: nil
            case .planned: .planned
            case .loaded: .loaded
            case .started, .stopped: .started
            }
        }
    }

    /// A phase a caller asks the runtime to reach, in the order they run.
    package enum Phase: Int, Comparable, Sendable {
        case planned, loaded, started

        package static func < (left: Phase, right: Phase) -> Bool { left.rawValue < right.rawValue }
    }

    var stage = Stage.initial
    /// The last snapshot a phase published, for readers.
    var published = HostRuntime.Snapshot()
    /// A phase is running module code (outside the lock).
    var busy = false
    /// How long the phases took, together: the whole start, for `modules --timing`.
    var elapsed: Duration = .zero
}

extension HostRuntime {
    // MARK: - The phases, each from the one before

    func makePlan() -> Planned {
        var snapshot = Snapshot()
        plan(&snapshot)
        return Planned(snapshot)
    }

    func load(_ planned: Planned) -> Loaded {
        var snapshot = planned.snapshot
        load(&snapshot)
        options.earlyProcesses.endUntaken { name, process in
            logger.debug("module '\(name)': its process (\(process.pid)) ended unused: the module is not loaded")
        }
        return Loaded(snapshot)
    }

    func start(_ loaded: Loaded) -> Started {
        var snapshot = loaded.snapshot
        startModules(&snapshot)
        return Started(snapshot)
    }

    func stop(_ started: Started) {
        stopModules(started.snapshot)
    }

    // MARK: - Driving them

    /// Plans only: every library checked and read from its file, nothing opened with `dlopen`
    /// (what `check` and `--help` use).
    public func planOnly() { advance(to: .planned) }

    /// Plans and loads, short of running `register` (the tests' way to see the load phase).
    public func prepare() { advance(to: .loaded) }

    /// How the app's `HostInfoRoute.check()` runs `modhost check` for this run (the command
    /// line knows the options a child needs).
    package func provideCheck(_ check: @escaping @Sendable () -> [String]?) {
        hostInfo.update(check: check)
    }

    /// Plans, loads, registers and starts the modules; later calls do nothing.
    public func start() {
        advance(to: .started)
        hostInfo.update(
            commands: { [self] in
                commands.flatMap { module in
                    module.commands.map { "modhost \(ModuleName(module.module).commandWord) \($0.usage) — \($0.summary)" }
                }
            },
            titles: { [self] name in
                // A module in a process of its own has its strings there: it says its title.
                guard let isolated = isolatedModule(named: name) else { return title(of: name) }
                return (try? isolated.title()) ?? name
            },
            describe: { [strings] text in text.render(strings) })
    }

    /// Module `name`'s title in this run's language, from its strings; its name when it has none.
    package func title(of name: String) -> String {
        let title = strings(of: name)[Self.moduleTitle]
        return title == Self.moduleTitle.rawValue ? name : title
    }

    /// Stops the started modules in reverse order; later calls, and calls before start, do
    /// nothing.
    public func stop() {
        let started: Started? = state.withLock { state in
            guard !state.busy, case .started(let started) = state.stage else { return nil }
            state.stage = .stopped
            return started
        }
        if let started { stop(started) }
    }

    /// Stops the modules unless a phase is running module code (a module still in `start`):
    /// the signal path never waits for it.
    package func stopIfIdle() { stop() }

    /// How long the phases run so far took: the whole start, once started.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// Whether the modules are started and not yet stopped.
    var isRunning: Bool {
        state.withLock { state in
            if case .started = state.stage { return true }
            return false
        }
    }

    /// Records that module `name` now runs `inspected` in process `processID` (a live restart).
    func tookNewLibrary(_ name: String, _ inspected: InspectedLibrary, processID: Int32) {
        state.withLock { state in
            guard case .started(var started) = state.stage else { return }
            started.snapshot.inspected[name] = inspected
            if let index = started.snapshot.reports.firstIndex(where: { $0.name == name }) {
                started.snapshot.reports[index].processID = processID
                started.snapshot.reports[index].version = inspected.descriptor.version
            }
            state.stage = .started(started)
            state.published = started.snapshot
        }
    }

    /// Reads the last published snapshot.
    func read<Value>(_ body: (Snapshot) -> Value) -> Value {
        state.withLock { body($0.published) }
    }

    /// Runs the phases up to `target`, each outside the lock; once stopped, none.
    private func advance(to target: RuntimeState.Phase) {
        while true {
            let current: RuntimeState.Stage? = state.withLock { state in
                guard !state.busy, (state.stage.reached.map { $0 < target } ?? true) else { return nil }
                state.busy = true
                return state.stage
            }
            guard let current else { return }
            let next: RuntimeState.Stage
            let snapshot: Snapshot
            let began = ContinuousClock.now
            switch current {
            case .initial:
                // Only a run that loads starts module processes.
                if target >= .loaded { startProcessesEarly() }
                let planned = makePlan()
                (next, snapshot) = (.planned(planned), planned.snapshot)
            case .planned(let planned):
                let loaded = load(planned)
                (next, snapshot) = (.loaded(loaded), loaded.snapshot)
            case .loaded(let loaded):
                let started = start(loaded)
                (next, snapshot) = (.started(started), started.snapshot)
            case .started, .stopped:
                state.withLock { $0.busy = false }
                return
            }
            state.withLock { state in
                state.stage = next
                state.published = snapshot
                state.busy = false
                state.elapsed += ContinuousClock.now - began
            }
        }
    }

    /// Marks modules whose probe failed as failed, and skips what requires them (no module
    /// code: the plan is revised).
    package func recordProbeFailures(_ problems: [String: HostText]) {
        guard !problems.isEmpty else { return }
        state.withLock { state in
            guard case .planned(var planned) = state.stage else { return }
            replan(&planned.snapshot, failing: problems)
            state.stage = .planned(planned)
            state.published = planned.snapshot
        }
    }
}
