import Foundation
import HostLifecycle
import HostLoading
import HostModel

/// `modhost bisect -- ARGS…`: finds the smallest set of enabled modules with which
/// `modhost ARGS…` still fails (exit status other than 0, a crash, or no end within the
/// time limit), trying subsets with `--only` so each kept module keeps what it requires.
/// Tries ignore recorded crashes and record none.
struct Bisect {
    let runtime: HostRuntime
    let console: Console
    let executable: String
    let options: [String]
    /// The longest a try may run before it counts as a failure (a hang).
    var timeLimit: Duration = .seconds(60)

    func run(_ arguments: [String]) -> Int32 {
        runtime.planOnly()
        let enabled = runtime.configuration.modules.filter(\.enabled).map(\.name)
        let tried = HostText.Argument.plain("modhost " + arguments.joined(separator: " "))
        say(HostText("bisect.trying", "trying '%@' with every enabled module (%@)", [tried, .plain("\(enabled.count)")]))
        guard let first = attempt(enabled, arguments), first.failed else {
            say(HostText("bisect.succeeds", "it succeeds with every enabled module; nothing to find"))
            return ModhostCommandLine.exitSuccess
        }
        if attempt([], arguments)?.failed == true {
            say(HostText("bisect.no.module", "it fails with no module at all (%@); the cause is not a module", [.text(first.how)]))
            return ModhostCommandLine.exitFailure
        }
        // One greedy pass: each try is an --only set, so what a kept module requires comes
        // with it, and a module whose drop keeps the failure is not needed for it.
        var kept = enabled
        for name in enabled where kept.count > 1 {
            let without = kept.filter { $0 != name }
            if attempt(without, arguments)?.failed == true { kept = without }
        }
        let last = attempt(kept, arguments)
        let names = HostText.Argument.plain(kept.map { "'\($0)'" }.joined(separator: ", "))
        let how = HostText.Argument.text(last?.how ?? first.how)
        say(
            kept.count == 1
                ? HostText("bisect.found.one", "it fails with %@ and the modules it requires (%@); without it it succeeds", [names, how])
                : HostText(
                    "bisect.found.many", "it fails with %@ and the modules they require (%@); without any one of them it succeeds",
                    [names, how]))
        return ModhostCommandLine.exitFailure
    }

    /// One line of the bisection's account (`modhost bisect: …`; the names are not translated).
    private func say(_ text: HostText) { console.print(HostText("", "modhost bisect: %@", [.text(text)])) }

    private struct Result {
        let failed: Bool
        let how: HostText
    }

    /// Runs `modhost` with only `modules` enabled (none: every module disabled). The run's own
    /// `--enable` and `--disable` are spelled out for each module (``options`` has none), so a
    /// try never asks for a module both enabled and disabled.
    private func attempt(_ modules: [String], _ arguments: [String]) -> Result? {
        let entries = runtime.configuration.modules
        let (enabled, disabled) = (entries.filter(\.enabled).map(\.name), entries.filter { !$0.enabled }.map(\.name))
        func list(_ option: CommandLineTable.Option, _ names: [String]) -> [String] {
            names.isEmpty ? [] : option.words(names.joined(separator: ","))
        }
        let selection =
            modules.isEmpty
            ? list(CommandLineTable.disable, entries.map(\.name))
            : list(CommandLineTable.enable, enabled) + list(CommandLineTable.disable, disabled) + list(CommandLineTable.only, modules)
        let command = [executable] + options + CommandLineTable.noCrashRecords.words() + selection + arguments
        guard let pid = ChildCommand.spawn(command, output: .discarded) else {
            console.error(HostText("", "bisect: %@", [.text(HostText("bisect.cannot.start", "cannot start '%@'", [.plain(executable)]))]))
            return nil
        }
        let deadline = ContinuousClock.now + timeLimit
        var status = ChildCommand.poll(pid)
        while status == nil && ContinuousClock.now < deadline {
            usleep(20_000)
            status = ChildCommand.poll(pid)
        }
        guard let status else {
            kill(pid, SIGKILL)
            _ = ChildCommand.wait(pid)
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
