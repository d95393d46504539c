import FoundationEssentials
import Glibc
import HostLifecycle
import HostLoading
import HostModel
import HostProcesses
import ModuleKit

/// Proves that libraries load by loading them in a child process (`modhost __probe NAME…`),
/// with a time limit per module: what `check` does, so that a library's own code can neither
/// crash, end nor hang `check`.
///
/// The child says what it does as it goes, one ``ProbeMessage`` per line: which module it
/// begins, whether it loaded, and at the end any route under two identities; its guard adds
/// how a module ended it (a crash, an exit, a hang). When it dies or overruns, the module it had
/// begun is the culprit, and a new child goes on with the modules after it.
struct LibraryProbe {
    /// What chooses the child's modules, as the option table passes it (`childOptions()`).
    let options: [String]
    /// Each module's own limit; the child is given 5 s more to start and 1 s more per module,
    /// so its own watchdog names a hang before this one kills it.
    let timeout: (String) -> Duration

    /// What the children found: the problems of each module that does not load or check, by
    /// name, and the strings files of the modules that did (every shipped locale, parsed).
    struct Report {
        var problems: [String: [HostText]] = [:]
        var stringsFiles = 0
        var stringsTime = Duration.zero
    }

    /// Probes `names`, one child after another, all within `limit` (the app's Check allows the
    /// check as a whole a little more): what is not done by then is said to be unchecked.
    func run(_ names: [String], limit: Duration) -> Report {
        var report = Report()
        var pending = names[...]
        let deadline = ContinuousClock.now + limit
        while !pending.isEmpty {
            // A signal ends this check: no new probe is started on the way out.
            guard !ProcessCleanup.isEnding else { break }
            guard ContinuousClock.now < deadline else {
                let text = HostText(
                    "probe.limit", "not checked: the check's limit of %@ s was reached", [.plain("\(limit.components.seconds)")])
                for name in pending { report.problems[name, default: []].append(text) }
                break
            }
            let outcome = runChild(Array(pending), deadline: deadline)
            report.problems.merge(outcome.problems) { first, _ in first }
            report.stringsFiles += outcome.stringsFiles
            report.stringsTime += outcome.stringsTime
            pending = pending.dropFirst(outcome.finished)
            if let culprit = outcome.culprit {
                report.problems[culprit, default: []].append(outcome.culpritProblem)
                pending = pending.drop { $0 != culprit }.dropFirst()
            } else if outcome.finished == 0 {
                for name in pending { report.problems[name] = [outcome.culpritProblem] }
                break
            }
        }
        return report
    }

    private struct Outcome {
        /// As the child said them, in this run's language.
        var problems: [String: [HostText]] = [:]
        /// How many modules got a result.
        var finished = 0
        var culprit: String?
        var culpritProblem = HostText("probe.unchecked", "could not be checked")
        var stringsFiles = 0
        var stringsTime = Duration.zero
    }

    private func runChild(_ names: [String], deadline limit: ContinuousClock.Instant) -> Outcome {
        var outcome = Outcome()
        var output: [Int32] = [0, 0]
        guard ProcessScope.pipe(&output) else {
            outcome.culpritProblem = HostText("probe.no.pipe", "could not be checked: no pipe for the child process")
            return outcome
        }
        // Its own data folder, thrown away after: a module's register may create its storage,
        // and check changes nothing in the real one.
        // Made here, yours alone (0700), and removed on every way out, a signal included.
        let data = TemporaryFolder.path + "modhost-probe-data-\(getpid())-\(UUID().uuidString)"
        mkdir(data, 0o700)
        guard ProcessCleanup.removeOnExit(data) else {
            ProcessCleanup.remove(data)
            return outcome
        }
        // What the probe left below it (a daemon after setsid is this process's child now) is
        // ended before its folder goes, whether the probe ended well or not.
        defer {
            Descendants.end()
            ProcessCleanup.remove(data)
        }
        let arguments =
            options + CommandLineTable.dataFolder.words(data) + CommandLineTable.noCrashRecords.words()
            + [CommandLineArguments.probeCommand] + names
        let spawned = ChildCommand.start(.host(arguments), output: .pipe(descriptor: output[1], closing: output[0]))
        close(output[1])
        defer { close(output[0]) }
        guard let pid = spawned.pid else {
            outcome.culpritProblem = HostText(
                "probe.cannot.start", "could not be checked: cannot start '%@': %@",
                [.plain(RunningExecutable.path), .plain(String(cString: strerror(spawned.error)))])
            return outcome
        }
        var current: String?
        var phase = GuardPhase.load
        var deadline = ContinuousClock.now + timeout(names[0]) + .seconds(5)
        var buffer: [UInt8] = []
        var timedOut = false
        var ended: GuardOutcome?
        /// The probe's wait status, once it is seen to have ended.
        var status: Int32?
        /// Once it ended: how long what is still on the pipe is read (a daemon it started may
        /// hold the pipe and write for ever).
        var drainUntil: ContinuousClock.Instant?
        while true {
            // Looked at on every pass, not only when the pipe is quiet: a child (or what it
            // started) that keeps writing must not keep its end or its limit from being seen.
            if status == nil, let ended = ChildCommand.poll(pid) {
                status = ended
                drainUntil = ContinuousClock.now + .seconds(1)
            }
            if let drainUntil, ContinuousClock.now >= drainUntil { break }
            if status == nil, ContinuousClock.now >= min(deadline, limit) {
                timedOut = true
                // SIGKILL ends a stopped process too; what it started is this process's to end.
                kill(pid, SIGKILL)
                break
            }
            // A stopped child says nothing either: its limit covers it as a hang.
            let remaining = min(deadline, limit) - ContinuousClock.now
            let milliseconds = max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            var poller = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
            // Every 100 ms at most: a probe that ended while something it started still holds
            // the pipe (a daemon) gives no end of file, but its wait status says it ended.
            let ready = poll(&poller, 1, Int32(clamping: min(milliseconds, 100)))
            if ready < 0 && errno == EINTR { continue }
            // Quiet: done once it ended (what it wrote before is read), else look again.
            if ready == 0 {
                if status != nil { break }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            buffer += chunk[0..<count]
            // Output without line ends (a module's own bytes) is no message: not kept for ever.
            if buffer.count > 1 << 20, !buffer.contains(UInt8(ascii: "\n")) { buffer.removeAll() }
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                switch ProbeMessage(line: line) {
                case .begin(let module)?:
                    current = module
                    phase = .load
                    deadline = ContinuousClock.now + timeout(module) + .seconds(1)
                case .phase(_, let next)?:
                    // Each phase has the module's time limit, as in a start.
                    phase = next
                    if let current { deadline = ContinuousClock.now + timeout(current) + .seconds(1) }
                case .loaded(_, let files, let nanoseconds)?:
                    outcome.finished += 1
                    current = nil
                    outcome.stringsFiles += files
                    outcome.stringsTime += .nanoseconds(nanoseconds)
                case .problem(let module, let reason)?:
                    outcome.problems[module, default: []].append(
                        reason.isEmpty ? HostText("probe.not.loaded", "could not be loaded") : .plain(reason))
                case .failed?:
                    outcome.finished += 1
                    current = nil
                case .conflict(let module, let reason)?:
                    // After every module is done: a problem of one that loaded alone.
                    outcome.problems[module, default: []].append(
                        reason.isEmpty ? HostText("probe.two.identities", "declares a route under two identities") : .plain(reason))
                case .ended(let outcome)?:
                    ended = outcome
                case nil:
                    // Not a message (a module's own output, or the guard's blank line).
                    break
                }
            }
        }
        let finalStatus = status ?? ChildCommand.wait(pid)
        guard let culprit = current ?? (outcome.finished < names.count ? names[outcome.finished] : nil) else { return outcome }
        outcome.culprit = culprit
        let seconds = ModuleGuard.format(ModuleGuard.seconds(timeout(culprit)))
        outcome.culpritProblem = Self.ending(
            phase: phase, timedOut: timedOut || ended == .hang, status: finalStatus, ended: ended, seconds: seconds)
        return outcome
    }

    /// How the child ended while `phase` of the culprit ran: a hang (its own watchdog usually
    /// names it first, and exits 1 after saying so), a crash, an exit, or another status.
    private static func ending(phase: GuardPhase, timedOut: Bool, status: Int32, ended: GuardOutcome?, seconds: String) -> HostText {
        let loading = phase == .load || phase == .configuration
        let code = "\((status >> 8) & 0xff)"
        if timedOut {
            return loading
                ? HostText(
                    "probe.hang", "did not finish loading within %@ s (checked in a child process); it would hang the host",
                    [.plain(seconds)])
                : HostText(
                    "probe.hang.in", "did not return from %@ within %@ s (checked in a child process); it would hang the host",
                    [.plain(phase.rawValue), .plain(seconds)])
        }
        if let signal = ChildCommand.signal(status) {
            return loading
                ? HostText(
                    "probe.crash", "crashes the host when it is loaded (%@, checked in a child process)", [.plain(signalName(signal))])
                : HostText(
                    "probe.crash.in", "crashes the host in %@ (%@, checked in a child process)",
                    [.plain(phase.rawValue), .plain(signalName(signal))])
        }
        if case .exit(let code)? = ended {
            return loading
                ? HostText(
                    "probe.exit", "calls exit(%@) when it is loaded (checked in a child process); it would end the host", [.plain(code)])
                : HostText(
                    "probe.exit.in", "calls exit(%@) in %@ (checked in a child process); it would end the host",
                    [.plain(code), .plain(phase.rawValue)])
        }
        return loading
            ? HostText("probe.ended", "ended the check's child process with status %@ when it was loaded", [.plain(code)])
            : HostText("probe.ended.in", "ended the check's child process with status %@ in %@", [.plain(code), .plain(phase.rawValue)])
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGABRT: "SIGABRT", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
