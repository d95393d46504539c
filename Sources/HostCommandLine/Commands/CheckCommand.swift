import Contracts
import FoundationEssentials
import Glibc
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
import ModuleKit

/// `modhost check`: every problem of `modules.json` and of each module it enables, in one
/// run, without running module code in this process. The file is read leniently (see
/// ``ModulesFileReading``): what can still be checked is, and each library that would start
/// is loaded in a child process (``LibraryProbe``), its configuration decoded, its `register`
/// and its own check of its resources run there, as a start would run them.
@MainActor
struct CheckCommand {
    let runtime: HostRuntime
    let console: Console
    /// The file's own problems, when it has some (the runtime holds what can be checked).
    let fileReading: ModulesFileReading?
    /// What chooses the child's modules, as the option table passes it.
    let childOptions: [String]

    func run(json: Bool) -> Int32 {
        // Whatever a library's constructor starts below the probes (after setsid or a double
        // fork) is this process's, and ends with it.
        ProcessCleanup.endDescendantsOnExit()
        defer { ProcessCleanup.run() }
        runtime.planOnly()
        // What the file names wrongly is not loaded: what runs must be what the file says.
        let unloadable = fileReading?.unloadable ?? []
        runtime.recordProbeFailures(
            Dictionary(
                unloadable.map {
                    ($0, HostText("check.unloadable", "not loaded while its 'library' or 'sha256' in the file is wrong (above)"))
                }, uniquingKeysWith: { first, _ in first }))
        let toProbe = runtime.modules.filter { $0.state == .active }.map(\.name)
        let timeout = { (name: String) in runtime.configuration.entry(named: name)?.timeout ?? ModuleGuard.defaultTimeout }
        let probe = LibraryProbe(options: childOptions, timeout: timeout)
        // The app's Check allows as long, and a little more for this process's own start and end.
        let report = probe.run(toProbe, limit: CheckFromTheApp.limit(timeouts: toProbe.map(timeout)) - .seconds(3))
        runtime.recordProbeFailures(report.problems.mapValues { HostText.joined($0) })
        let (sandboxRefusals, sandboxNotes) = Self.sandboxGaps(of: runtime)
        runtime.recordProbeFailures(sandboxRefusals)
        // Every language of the host's own strings too (a run reads only the one it shows).
        let started = ContinuousClock.now
        var hostProblem: String?
        var files = report.stringsFiles
        do {
            files +=
                try ModuleStrings.loadEveryLocale(module: HostRuntime.hostName, from: HostRuntime.hostStringsFolder, locale: runtime.locale)
                .tables.count
        } catch {
            hostProblem = error.message
        }
        let stringsTime = report.stringsTime + (ContinuousClock.now - started)
        let problems = CheckReport(
            path: runtime.configuration.path, fileProblems: fileReading?.problems ?? [], modules: runtime.modules,
            entries: runtime.configuration, moduleProblems: report.problems, hostProblem: hostProblem)
        if json {
            console.out(problems.json(runtime.strings))
            return problems.isEmpty ? ModhostCommandLine.exitSuccess : ModhostCommandLine.exitFailure
        }
        for note in sandboxNotes { console.print(note) }
        guard problems.isEmpty else {
            for line in problems.lines(runtime.strings) { console.error(line) }
            return ModhostCommandLine.exitFailure
        }
        let modules = runtime.modules
        let active = modules.filter { $0.state == .active }.count
        let ready = runtime.strings.plural(.checkReady, count: active, "\(active)")
        console.print(runtime.strings.format(.checkValid, runtime.configuration.path, ready, "\(modules.count - active)"))
        let milliseconds = FixedDecimals.text(ModuleGuard.seconds(stringsTime) * 1000, places: 1)
        console.print(
            HostText(
                "check.strings", "Every shipped language is valid (%@ strings files, read in %@ ms).",
                [.plain("\(files)"), .plain(milliseconds)]))
        return ModhostCommandLine.exitSuccess
    }

    /// What the sandbox of each module that would start in a process of its own cannot enforce
    /// on this kernel, as its start would find it: a refusal where its entry asks for the
    /// sandbox whole (`"sandbox": "required"`: the start refuses it), a note otherwise.
    static func sandboxGaps(of runtime: HostRuntime) -> (refusals: [String: HostText], notes: [HostText]) {
        var refusals: [String: HostText] = [:]
        var notes: [HostText] = []
        for module in runtime.modules where module.state == .active && module.isolation == .process {
            guard let missing = module.sandboxNotEnforced else { continue }
            if runtime.configuration.entry(named: module.name)?.sandbox == .required {
                refusals[module.name] = HostText(
                    "check.sandbox.required", "its sandbox cannot be whole here ('sandbox' is \"required\"): this kernel cannot enforce %@",
                    [.plain(missing)])
            } else {
                notes.append(
                    HostText(
                        "check.sandbox.partial", "module '%@' runs in a process of its own; not enforced here: %@",
                        [.plain(module.name), .plain(missing)]))
            }
        }
        return (refusals, notes)
    }
}
