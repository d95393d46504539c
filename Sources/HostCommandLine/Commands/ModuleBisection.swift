import FoundationEssentials
import Glibc
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses

/// `modhost bisect [--keep NAME] -- ARGS…`: finds the modules that make `modhost ARGS…` fail
/// (exit status other than 0, a crash, or no end within the time limit).
///
/// The modules the command needs (its own module and what it requires) and those `--keep`
/// names stay in every try. Among the others, delta debugging (ddmin) narrows the failing set
/// to one culprit, or to a smallest set that fails only together; then, without it, it looks
/// again, so independent culprits are all found. Each try is an `--only` set, so what a module
/// requires comes with it. Tries ignore recorded crashes and record none.
struct ModuleBisection {
    let runtime: HostRuntime
    let console: Console
    let options: [String]
    /// Modules named by `--keep`: in every try.
    var keep: [String] = []
    /// The longest a try may run before it counts as a failure (a hang).
    var timeLimit: Duration = .seconds(60)

    func run(_ arguments: [String]) -> Int32 {
        runtime.planOnly()
        let entries = runtime.configuration.modules
        for name in keep where runtime.configuration.entry(named: name) == nil {
            console.error(HostRuntime.noSuchModule(name, flag: "--keep", in: runtime.configuration))
            return ModhostCommandLine.exitUsage
        }
        let enabled = entries.filter(\.enabled).map(\.name)
        let pinned = pinnedModules(for: arguments).filter { enabled.contains($0) }
        let candidates = enabled.filter { !pinned.contains($0) }
        let tried = HostText.Argument.plain("modhost " + arguments.joined(separator: " "))
        say(HostText("bisect.trying", "trying '%@' with every enabled module (%@)", [tried, .plain("\(enabled.count)")]))
        if !pinned.isEmpty {
            say(HostText("bisect.keeping", "every try keeps %@: the command needs them, or --keep names them", [names(pinned)]))
        }
        var tries = Tries(bisect: self, arguments: arguments, pinned: pinned)
        guard let first = tries.result(candidates), first.failed else {
            say(HostText("bisect.succeeds", "it succeeds with every enabled module; nothing to find"))
            return ModhostCommandLine.exitSuccess
        }
        if let alone = tries.result([]), alone.failed {
            say(
                pinned.isEmpty
                    ? HostText("bisect.no.module", "it fails with no module at all (%@); the cause is not a module", [.text(first.how)])
                    : HostText(
                        "bisect.kept.fail", "it fails with only %@ (%@); the cause is among them, not in another module",
                        [names(pinned), .text(alone.how)]))
            say(HostText("bisect.runs", "%@ runs", [.plain("\(tries.count)")]))
            return ModhostCommandLine.exitFailure
        }
        // One culprit (or set) at a time; without it, is there another?
        var rest = candidates
        while let culprit = tries.smallestFailingSet(of: rest) {
            let how = HostText.Argument.text(tries.result(culprit)?.how ?? first.how)
            say(
                culprit.count == 1
                    ? HostText(
                        "bisect.found.one", "it fails with %@ and the modules it requires (%@); without it it succeeds",
                        [names(culprit), how])
                    : HostText(
                        "bisect.found.many", "it fails with %@ and the modules they require (%@); without any one of them it succeeds",
                        [names(culprit), how]))
            rest.removeAll { culprit.contains($0) }
            guard !rest.isEmpty, tries.result(rest)?.failed == true else { break }
        }
        say(HostText("bisect.runs", "%@ runs", [.plain("\(tries.count)")]))
        return ModhostCommandLine.exitFailure
    }

    /// `'A', 'B'`, for the account.
    private func names(_ modules: [String]) -> HostText.Argument {
        .plain(modules.map { "'\($0)'" }.joined(separator: ", "))
    }

    /// The command's own module (`modhost geo …` needs Geo), `--keep`'s, and every module
    /// their routes require, transitively, from the descriptors.
    private func pinnedModules(for arguments: [String]) -> [String] {
        var roots = keep.compactMap { runtime.configuration.entry(named: $0)?.name }
        if let command = (try? CommandLineArguments.parse(arguments))?.command as? Builtins.OfModule,
            let entry = runtime.configuration.entry(named: command.module)
        {
            roots.append(entry.name)
        }
        let reports = runtime.modules
        var providers: [String: String] = [:]
        for report in reports {
            for route in report.provides where providers[route] == nil { providers[route] = report.name }
        }
        var pinned: [String] = []
        var pending = roots
        while let name = pending.popLast() {
            guard !pinned.contains(name) else { continue }
            pinned.append(name)
            pending += (reports.first { $0.name == name }?.requires ?? []).compactMap { providers[$0] }
        }
        // In modules.json order, for a stable account.
        return runtime.configuration.modules.map(\.name).filter { pinned.contains($0) }
    }

    /// The tries of one bisection: each set once (the same set is never run twice), counted.
    struct Tries {
        let bisect: ModuleBisection
        let arguments: [String]
        let pinned: [String]
        private var results: [Set<String>: Result] = [:]
        /// How many runs of `modhost` it took.
        private(set) var count = 0

        init(bisect: ModuleBisection, arguments: [String], pinned: [String]) {
            self.bisect = bisect
            self.arguments = arguments
            self.pinned = pinned
        }

        /// The run with `modules` besides the pinned ones; `nil` when it could not start.
        mutating func result(_ modules: [String]) -> Result? {
            let key = Set(modules)
            if let known = results[key] { return known }
            count += 1
            let result = bisect.attempt(pinned + modules, arguments)
            if let result { results[key] = result }
            return result
        }

        mutating func fails(_ modules: [String]) -> Bool { result(modules)?.failed == true }

        /// A 1-minimal failing subset of `modules` (every module in it is needed for the
        /// failure), by Zeller's ddmin; `nil` when `modules` does not fail.
        mutating func smallestFailingSet(of modules: [String]) -> [String]? {
            guard fails(modules) else { return nil }
            var set = modules
            var parts = 2
            while set.count >= 2 {
                let chunks = Self.split(set, into: parts)
                if let failing = chunks.first(where: { fails($0) }) {
                    (set, parts) = (failing, 2)
                    continue
                }
                if parts > 2 || chunks.count > 2,
                    let complement = chunks.lazy.map({ chunk in set.filter { !chunk.contains($0) } }).first(where: { fails($0) })
                {
                    (set, parts) = (complement, max(parts - 1, 2))
                    continue
                }
                guard parts < set.count else { break }
                parts = min(set.count, parts * 2)
            }
            return set
        }

        /// `modules` in `parts` chunks of near-equal size, in order.
        static func split(_ modules: [String], into parts: Int) -> [[String]] {
            let size = Int((Double(modules.count) / Double(parts)).rounded(.up))
            return stride(from: 0, to: modules.count, by: max(size, 1)).map { Array(modules[$0..<min($0 + size, modules.count)]) }
        }
    }

    /// One line of the bisection's account (`modhost bisect: …`; the names are not translated).
    private func say(_ text: HostText) { console.print(HostText("", "modhost bisect: %@", [.text(text)])) }

    struct Result {
        let failed: Bool
        let how: HostText
    }

    /// Runs `modhost` with only `modules` enabled (none: every module disabled). The run's own
    /// `--enable` and `--disable` are spelled out for each module (``options`` has none), so a
    /// try never asks for a module both enabled and disabled.
    func attempt(_ modules: [String], _ arguments: [String]) -> Result? {
        let entries = runtime.configuration.modules
        let (enabled, disabled) = (entries.filter(\.enabled).map(\.name), entries.filter { !$0.enabled }.map(\.name))
        func list(_ option: CommandLineTable.Option, _ names: [String]) -> [String] {
            names.isEmpty ? [] : option.words(names.joined(separator: ","))
        }
        let selection =
            modules.isEmpty
            ? list(CommandLineTable.disable, entries.map(\.name))
            : list(CommandLineTable.enable, enabled) + list(CommandLineTable.disable, disabled) + list(CommandLineTable.only, modules)
        let command = options + CommandLineTable.noCrashRecords.words() + selection + arguments
        guard let pid = ChildCommand.spawnHost(command, output: .discarded) else {
            let text = HostText("bisect.cannot.start", "cannot start '%@'", [.plain(RunningExecutable.path)])
            console.error(HostText("", "bisect: %@", [.text(text)]))
            return nil
        }
        let (status, killed) = ChildCommand.wait(pid, atMost: timeLimit)
        guard !killed else {
            return Result(
                failed: true,
                how: HostText("bisect.how.hang", "no end within %@ s", [.plain(ModuleGuard.format(ModuleGuard.seconds(timeLimit)))]))
        }
        if let signal = ChildCommand.signal(status) {
            return Result(failed: true, how: HostText("bisect.how.crash", "crash, %@", [.plain(LibraryProbe.signalName(signal))]))
        }
        let code = ChildCommand.exitCode(status)
        return Result(failed: code != 0, how: HostText("bisect.how.exit", "exit status %@", [.plain("\(code)")]))
    }
}
