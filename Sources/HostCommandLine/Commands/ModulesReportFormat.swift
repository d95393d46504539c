import Contracts
import FoundationEssentials
import Glibc
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
import HostSandbox
import ModuleKit

/// `modhost modules` as a table, and as the stable JSON documented in docs/USING.md.
enum ModulesReportFormat {
    /// The table, its words from `strings` (the person's language; English without them). A
    /// reason is wrapped to `width` columns when given (on a terminal), else one line (piped).
    static func table(_ modules: [ModuleReport], strings: ModuleStrings? = nil, width: Int? = nil) -> String {
        func word(_ key: String, _ english: String) -> String { HostText(key, english).render(strings) }
        guard !modules.isEmpty else { return word("report.none", "no modules in modules.json") + "\n" }
        let header = [
            word("report.module", "MODULE"), word("report.state", "STATE"), word("report.version", "VERSION"),
            word("report.provides", "PROVIDES"), word("report.requires", "REQUIRES"), word("report.uses", "USES"),
        ]
        let rows = modules.map { module in
            [
                module.name, module.state.word.render(strings), module.version ?? "-",
                list(module.provides), list(module.requires), list(module.uses),
            ]
        }
        var lines = Table(header: header, rows: rows).lines
        for (index, module) in modules.enumerated() {
            if let reason = module.reasonText {
                let label = module.state == .disabled ? word("report.note", "note") : word("report.reason", "reason")
                let lead = "    \(label): "
                let text = reason.render(strings)
                let parts = width.map { HelpText.wrap(text, width: max(20, $0 - lead.count), indent: "") } ?? [text]
                let under = "\n" + String(repeating: " ", count: lead.count)
                lines[index + 1] += "\n" + lead + parts.joinedConcretely(separator: under)
            }
            if let runs = module.whereItRuns {
                lines[index + 1] += "\n    " + word("report.runs", "runs") + ": " + runs.render(strings)
            }
            if !module.capabilities.isEmpty {
                lines[index + 1] +=
                    "\n    " + word("report.may", "may") + ": " + module.capabilities.words.joinedConcretely(separator: ", ")
            }
            if module.isolation == .process, let missing = module.sandboxNotEnforced {
                lines[index + 1] += "\n    " + word("report.sandbox.missing", "not enforced here") + ": " + missing
            }
        }
        return lines.joinedConcretely(separator: "\n") + "\n"
    }

    /// `{"configuration":…,"environment":…,"modules":[ModuleReport…],"schemaVersion":1}`, in
    /// the kit's one JSON format (`JSONOutput`).
    /// With `timing`, each module's `timing` and the whole start's `startMilliseconds`; else
    /// both `null`.
    static func json(_ runtime: HostRuntime, timing: Bool = false) -> String {
        struct Document: Encodable {
            let schemaVersion = JSONOutput.schemaVersion
            let environment: String
            let configuration: String
            let modules: [ModuleReport]
            let startMilliseconds: Double?

            enum CodingKeys: String, CodingKey { case schemaVersion, environment, configuration, modules, startMilliseconds }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(schemaVersion, forKey: .schemaVersion)
                try container.encode(environment, forKey: .environment)
                try container.encode(configuration, forKey: .configuration)
                try container.encode(modules, forKey: .modules)
                try container.encode(startMilliseconds, forKey: .startMilliseconds)
            }
        }
        let modules = runtime.modules.map { report in
            var report = report
            if !timing { report.timing = nil }
            return report
        }
        let document = Document(
            environment: runtime.configuration.environment.rawValue,
            configuration: runtime.configuration.path,
            modules: modules,
            startMilliseconds: timing ? ModuleTiming.milliseconds(runtime.elapsed) : nil
        )
        return JSONOutput.string(document) + "\n"
    }

    /// `modules --timing`: each module's time in each phase, its share of the whole start,
    /// and the memory its phases added; then the whole start.
    static func timing(_ modules: [ModuleReport], whole: Duration, strings: ModuleStrings? = nil) -> String {
        func word(_ key: String, _ english: String) -> String { HostText(key, english).render(strings) }
        let header = [
            word("report.module", "MODULE"), word("timing.checks", "CHECKS"), word("timing.load", "LOAD"),
            word("timing.configuration", "CONFIG"), word("timing.register", "REGISTER"), word("timing.start", "START"),
            word("timing.total", "TOTAL"), word("timing.share", "SHARE"), word("timing.memory", "MEMORY"),
        ]
        let wholeSeconds = max(ModuleGuard.seconds(whole), 1e-9)
        let rows = modules.map { module -> [String] in
            guard let timing = module.timing else { return [module.name, "-", "-", "-", "-", "-", "-", "-", "-"] }
            let share = Int((ModuleGuard.seconds(timing.total) / wholeSeconds * 100).rounded())
            return [
                module.name, format(timing.checks), format(timing.load), format(timing.configuration), format(timing.register),
                format(timing.start), format(timing.total), "\(share)%", timing.memory.map(bytes) ?? "-",
            ]
        }
        var lines = Table(header: header, rows: rows).lines
        for (index, module) in modules.enumerated() {
            for calls in module.calls {
                lines[index + 1] +=
                    "\n    "
                    + HostText(
                        "timing.calls", "%@: %@ calls, p50 %@, p99 %@",
                        [.plain(calls.member), .plain("\(calls.count)"), .plain(fine(calls.p50)), .plain(fine(calls.p99))]
                    ).render(strings)
            }
        }
        lines.append(
            HostText("timing.whole", "The whole start took %@; the rest is the host's own work.", [.plain(format(whole))]).render(strings))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func format(_ duration: Duration) -> String {
        FixedDecimals.text(ModuleGuard.seconds(duration) * 1000, places: 1) + " ms"
    }

    /// A call's time, to the microsecond.
    private static func fine(_ duration: Duration) -> String {
        FixedDecimals.text(ModuleGuard.seconds(duration) * 1000, places: 3) + " ms"
    }

    private static func bytes(_ count: Int) -> String {
        count >= 1 << 20 ? FixedDecimals.text(Double(count) / Double(1 << 20), places: 1) + " MiB" : "\(count / 1024) KiB"
    }

    private static func list(_ routes: [String]) -> String {
        routes.isEmpty ? "-" : routes.joinedConcretely(separator: ",")
    }
}

/// Left-aligned columns, two spaces apart.
struct Table {
    let header: [String]
    let rows: [[String]]

    var lines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        // Appended cell by cell: `joined()` is generic over the strings' collection, and its
        // first use asks the runtime for an associated type by name (a scan of every loaded
        // conformance, after the modules' libraries were opened).
        return all.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line.append(column == row.count - 1 ? cell : cell.padding(to: widths[column] + 1))
            }
            return line
        }
    }
}

extension ModuleReport {
    /// What its sandbox cannot enforce on this kernel, in words; `nil` when it is whole.
    var sandboxNotEnforced: String? {
        guard sandbox != .off else { return "anything: its sandbox is off (\"sandbox\": \"off\" in modules.json)" }
        var policy = SandboxPolicy()
        policy.network = capabilities.network
        let missing = Sandbox.notEnforced(policy, abi: Sandbox.landlockABI)
        return missing.isEmpty ? nil : missing.joined(separator: "; ")
    }

    /// Where the module runs, when it is a process of its own (its id once it is started);
    /// `nil` in the host's process.
    var whereItRuns: HostText? {
        guard isolation == .process else { return nil }
        guard let processID else { return HostText("report.isolated", "in a process of its own") }
        return HostText("report.isolated.pid", "in process %@, its own", [.plain("\(processID)")])
    }
}
