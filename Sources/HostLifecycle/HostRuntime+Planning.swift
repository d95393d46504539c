import Contracts
import HostGraph
import HostLoading
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

// Planning: which modules run, and in what order, from modules.json, the crash records and the
// libraries' descriptors (see HostRuntime+Inspection.swift); no module code runs.
extension HostRuntime {
    /// Reads every enabled library's descriptor, checks trust and crash records, and plans the
    /// start order: no module code runs.
    func plan(_ state: inout Snapshot) {
        // In a module's own process, what the records and modules.json say the host has said,
        // and obeyed: its end is the host's to tell (from its wait status).
        let inHost = options.parentLink == nil
        var crashes = CrashRecords(
            dataFolder: options.dataFolder, collect: options.recordsCrashes && !options.readOnly, readingRecords: inHost)
        if options.recordsCrashes && !options.readOnly && options.retry.contains(where: { ModuleName($0) == ModuleName("all") }) {
            crashes.forgetAll()
        }
        if let problem = crashes.problem { logger.warn("crash records are neither read nor obeyed: \(problem)") }
        if let problem = crashes.saveProblem {
            logger.warn("crash records cannot be saved: \(problem); what ended a run stays in its marker, obeyed until they can")
        }
        for marker in crashes.unreadableMarkers {
            logger.warn(
                "crash marker '\(marker)' holds no record this host can read (another version's, or damaged); nothing is skipped for it")
        }
        for record in crashes.vanished { logger.warn(record.warningText.description) }
        moduleGuard.watch(crashes.warnings)
        var reports: [ModuleReport] = []
        // Every enabled library checked and described first, two at a time where the machine
        // has a second processor (no module code runs); what each found is reported in order.
        let inspections = KitOrigin.problem == nil ? inspectEnabled(hashing: options.hashLibraries) : [:]
        for entry in configuration.modules {
            // Active until the plan says otherwise (see `apply`).
            var report = ModuleReport(name: entry.name, outcome: .active)
            report.isolation = entry.isolation
            report.sandbox = entry.sandbox
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
            let inspection = inspections[entry.name] ?? timedInspection(of: entry, hashing: options.hashLibraries)
            state.timings[entry.name, default: ModuleTiming()].checks += inspection.took
            do throws(LoadError) {
                let inspected = try inspection.library()
                report.library = inspected.path
                report.version = inspected.descriptor.version
                report.sdk = inspected.descriptor.sdkVersion
                report.provides = inspected.descriptor.provides
                report.requires = inspected.descriptor.requires
                report.uses = inspected.descriptor.uses
                report.commands = inspected.descriptor.commands
                report.capabilities = inspected.descriptor.capabilities.narrowed(denying: entry.deny)
                for slip in inspected.descriptor.capabilities.unmatched(entry.deny) where inHost {
                    logger.warn(
                        "module '\(entry.name)': 'deny' lists '\(slip)', which its manifest does not declare: it takes nothing away")
                }
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
        if options.describesEveryModule { describeDisabled(&reports, from: state.disabledDescriptors) }
        for index in reports.indices where state.inspected[reports[index].name] != nil && !selected.contains(reports[index].name) {
            reports[index].outcome = .disabled(
                HostText(
                    "reason.not.selected", "not selected by --only %@", [.plain((options.only ?? []).joinedConcretely(separator: ","))]))
        }
        let explain: @Sendable (String) -> HostText? = { [reports, disabled = state.disabledDescriptors] route in
            Self.explainMissing(route, reports: reports, disabled: disabled)
        }
        var graph = DependencyGraph(
            nodes: configuration.modules.compactMap { entry in
                guard selected.contains(entry.name), let inspected = state.inspected[entry.name] else { return nil }
                return DependencyGraph.Node(name: entry.name, descriptor: inspected.descriptor)
            },
            hostRoutes: Self.hostRoutes.map(\.name) + options.parentRoutes, hostName: Self.hostName,
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

    /// With `--only`, the named modules plus every provider they require, transitively.
    private func selection(inspected: [String: InspectedLibrary]) -> Set<String> {
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

    private func disabledReason(_ entry: ModuleEntry) -> HostText {
        if options.disable.containsModule(entry.name) {
            return HostText("reason.disabled.flag", "disabled by --disable")
        }
        return HostText("reason.disabled.file", "disabled in modules.json")
    }

    /// Reads the descriptors of disabled modules when a report describes every module, or when
    /// a selected module declares a route no selected module provides: then they can say who
    /// would have provided it. A problem with a disabled module's file is not reported (it is
    /// not used).
    private func readDisabledDescriptorsIfMissed(_ state: inout Snapshot, selected: Set<String>) {
        let descriptors = selected.compactMap { state.inspected[$0]?.descriptor }
        let provided = Set(descriptors.flatMap(\.provides) + Self.hostRoutes.map(\.name))
        let missed = descriptors.contains { !Set($0.requires + $0.uses).isSubset(of: provided) }
        guard missed || options.describesEveryModule else { return }
        for entry in configuration.modules where !entry.enabled {
            if let inspected = try? inspect(entry, hashing: false) {
                state.disabledDescriptors[entry.name] = inspected.descriptor
            }
        }
    }

    /// A disabled module's report, with what its library's descriptor says when it was read.
    private func describeDisabled(_ reports: inout [ModuleReport], from descriptors: [String: ModuleDescriptor]) {
        for index in reports.indices where reports[index].state == .disabled {
            guard let descriptor = descriptors[reports[index].name] else { continue }
            reports[index].version = descriptor.version
            reports[index].sdk = descriptor.sdkVersion
            reports[index].provides = descriptor.provides
            reports[index].requires = descriptor.requires
            reports[index].uses = descriptor.uses
            reports[index].commands = descriptor.commands
            reports[index].capabilities = descriptor.capabilities.narrowed(
                denying: configuration.entry(named: reports[index].name)?.deny ?? [])
        }
    }

    /// Planned modules built against a version of a contracts library that does not fit the one
    /// the process will hold (see ``ContractsCheck``), with the reason each must not be loaded.
    private func contractsConflicts(_ state: Snapshot) -> [String: HostText] {
        let modules = state.plan.order.compactMap { name in
            state.inspected[name].map { ContractsCheck.Module(name: name, library: $0.path, contracts: $0.descriptor.contracts) }
        }
        let reasons = ContractsCheck.conflicts(in: modules, beside: ContractsCheck.library(beside:named:))
        return reasons.reduce(into: [:]) { result, item in
            result[item.key] = Self.libraryProblem(state.inspected[item.key]?.path ?? item.key, item.value)
        }
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

    /// Names the module that would provide `route` when it is not running: the enabled module
    /// whose descriptor provides it, or the disabled one whose library's descriptor does.
    static func explainMissing(_ route: String, reports: [ModuleReport], disabled: [String: ModuleDescriptor]) -> HostText? {
        for report in reports {
            let provides = report.provides.contains(route) || disabled[report.name]?.provides.contains(route) == true
            guard provides else { continue }
            let reason = report.reasonText ?? .plain("")
            switch report.outcome {
            case .disabled: return HostText("reason.provider.disabled", "%@ is %@", [.plain(report.name), .text(reason)])
            case .failed: return HostText("reason.provider.failed", "%@ failed: %@", [.plain(report.name), .text(reason)])
            case .active, .skipped: return nil
            }
        }
        return nil
    }
}
