import Foundation

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
        console.print("modhost bisect: trying 'modhost \(arguments.joined(separator: " "))' with \(enabled.count) modules")
        guard let first = attempt(enabled, arguments), first.failed else {
            console.print("modhost bisect: it succeeds with every enabled module; nothing to find")
            return ModhostCommandLine.exitSuccess
        }
        if attempt([], arguments)?.failed == true {
            console.print("modhost bisect: it fails with no module at all (\(first.how)); the cause is not a module")
            return ModhostCommandLine.exitFailure
        }
        // Drop one module at a time; keep the drop whenever the failure stays.
        var kept = enabled
        for name in enabled where kept.count > 1 {
            let without = kept.filter { $0 != name }
            if attempt(without, arguments)?.failed == true { kept = without }
        }
        let last = attempt(kept, arguments)
        console.print(
            "modhost bisect: it fails with \(kept.map { "'\($0)'" }.joined(separator: ", "))"
                + " and the modules they require (\(last?.how ?? first.how)); without \(kept.count == 1 ? "it" : "any one of them") it succeeds"
        )
        return ModhostCommandLine.exitFailure
    }

    private struct Result {
        let failed: Bool
        let how: String
    }

    /// Runs `modhost` with only `modules` enabled (none: every module disabled).
    private func attempt(_ modules: [String], _ arguments: [String]) -> Result? {
        let all = runtime.configuration.modules.filter(\.enabled).map(\.name)
        let selection = modules.isEmpty ? ["--disable", all.joined(separator: ",")] : ["--only", modules.joined(separator: ",")]
        let command =
            [executable] + options.filter { $0 != "--no-crash-records" } + ["--no-crash-records"] + (all.isEmpty ? [] : selection)
            + arguments
        guard let pid = ChildCommand.spawn(command, output: .discarded) else {
            console.error("bisect: cannot start '\(executable)'")
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
            return Result(failed: true, how: "no end within \(ModuleGuard.format(ModuleGuard.seconds(timeLimit))) s")
        }
        if let signal = ChildCommand.signal(status) {
            return Result(failed: true, how: "crash, \(LibraryProbe.signalName(signal))")
        }
        let code = ChildCommand.exitCode(status)
        return Result(failed: code != 0, how: "exit status \(code)")
    }
}
