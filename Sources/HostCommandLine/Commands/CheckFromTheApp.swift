import CHostGuard
import FoundationEssentials
import Glibc
import HostModel
import HostProcesses
import ModuleKit
import Synchronization

/// `HostInfoRoute.check()` for the app (Settings' Check): `modhost check` itself, in a child
/// process given this run's options, so the app shows exactly what the command says, and no
/// library is loaded again in the app's own process.
struct CheckFromTheApp: Sendable {
    /// What chooses the child's modules and files, as the option table passes it.
    let options: [String]
    let strings: ModuleStrings
    /// The language the app speaks now (Settings may have chosen another than the
    /// environment's, and the child check never starts Settings to learn it).
    let language: @Sendable () -> String
    /// What check may take: its probes run one module after another, each of the four
    /// phases (load, configuration, register, resources) limited by the module's timeout and
    /// a second more, and a new probe child, given 5 s to start, after a module that fails.
    var limit: Duration
    /// What runs in place of the running `modhost` (its path first), for the tests of the limit;
    /// `nil`, the running binary itself.
    var replacement: [String]?

    init(options: [String], strings: ModuleStrings, language: @escaping @Sendable () -> String, timeouts: [Duration]) {
        self.options = options
        self.strings = strings
        self.language = language
        limit = Self.limit(timeouts: timeouts)
    }

    /// What a check of modules with these timeouts may take; `check` on the command line
    /// keeps to the same, less the 3 s its own start and end take (`LibraryProbe.run(_:limit:)`).
    static func limit(timeouts: [Duration]) -> Duration {
        timeouts.reduce(.seconds(10)) { $0 + ($1 + .seconds(1)) * 4 + .seconds(5) }
    }

    /// The lines the command wrote (standard output and error, in order), or one line that says
    /// why there are none.
    func run() -> [String] {
        var ends: [Int32] = [0, 0]
        guard ProcessScope.pipe(&ends) else { return [failure(errno)] }
        let check = Builtins.Check.declaration.word ?? "check"
        // A group of its own: a check that overruns is ended with the probes it started.
        let program = replacement.map { ChildCommand.Program.command($0 + options + [check]) } ?? .host(options + [check])
        let spawned = ChildCommand.start(
            program, output: .descriptor(ends[1]), environment: Self.environment(speaking: language()), ownGroup: true)
        close(ends[1])
        defer { close(ends[0]) }
        guard let pid = spawned.pid else { return [failure(spawned.error)] }
        // Every way the host ends without coming back here (a signal, a crash, the watchdog)
        // ends the group too.
        modhost_guard_set_child_group(pid)
        defer { modhost_guard_set_child_group(0) }
        let deadline = ContinuousClock.now + limit
        let (output, readToTheEnd) = readToEnd(ends[0], until: deadline)
        var status: Int32?
        while readToTheEnd, status == nil, ContinuousClock.now < deadline, modhost_guard_pending_signal() == 0 {
            status = Self.ended(pid)
            if status == nil { usleep(10_000) }
        }
        if status == nil { Self.end(pid) }
        var lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        // In the app every line is the check's: "modhost: error: " before each says nothing.
        let lead = Console.errorLead
        lines = lines.map { $0.hasPrefix(lead) ? String($0.dropFirst(lead.count)) : $0 }
        guard let status else {
            // Ended by a signal to the app: it is ending, nothing more to say.
            if modhost_guard_pending_signal() != 0 { return lines }
            let text = HostText(
                "check.app.unfinished", "'modhost check' did not finish within %@ s; run it from a shell to see why",
                [.plain("\(limit.components.seconds)")])
            return lines + [text.render(strings)]
        }
        if lines.isEmpty && status != 0 {
            let ended = HostText(
                "check.app.silent", "'modhost check' ended with status %@ without a word; run it from a shell to see why",
                [.plain("\(ChildCommand.exitCode(status))")])
            return [ended.render(strings)]
        }
        return lines
    }

    /// This process's environment, made to speak `language` where the host reads it
    /// (``LocaleSetting``: `LC_ALL`, then `LC_MESSAGES`, then `LANG`), with a locale name the C
    /// library knows; unchanged when it already does.
    static func environment(speaking language: String) -> [String: String] {
        var environment = ProcessEnvironment.variables
        guard LocaleSetting.language(in: environment) != language else { return environment }
        let regions = ["en": "C", "el": "el_GR", "es": "es_ES", "fr": "fr_FR", "de": "de_DE", "it": "it_IT"]
        let name = (regions[language] ?? language) + ".UTF-8"
        // Only the messages' category, unless LC_ALL, which overrides every category, is set.
        if environment["LC_ALL"].map({ !$0.isEmpty }) == true { environment["LC_ALL"] = name } else { environment["LC_MESSAGES"] = name }
        return environment
    }

    /// Ends the check that overran or was stopped, with everything below it: continued (a
    /// stopped process acts on no signal but SIGKILL) and asked to end, so that it ends its
    /// probes and what they left; then, once it ended or after two seconds, its whole group
    /// killed.
    private static func end(_ pid: pid_t) {
        askToEnd(pid)
        let grace = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < grace {
            if ended(pid) != nil {
                kill(-pid, SIGKILL)
                return
            }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        _ = ChildCommand.wait(pid)
    }

    /// The check last asked to end: a second SIGTERM would end it at once, before it cleaned up
    /// (the guard's second signal), so it is asked once, by whichever of this run's main thread
    /// and its signal path comes first.
    private static let asked = Mutex<pid_t>(0)

    /// Continues `pid` (a stopped process acts on no other signal) and sends it SIGTERM, once.
    static func askToEnd(_ pid: pid_t) {
        let first = asked.withLock { asked in
            defer { asked = pid }
            return asked != pid
        }
        guard first else { return }
        kill(pid, SIGCONT)
        kill(pid, SIGTERM)
    }

    /// The wait status of `pid` once it has ended (0 when another waiter took it), else `nil`.
    /// A stopped check is not an ended one: the limit covers it.
    private static func ended(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid { return status }
        // Reaped by someone else (a module that waits for any child): it has ended.
        return result < 0 && errno == ECHILD ? 0 : nil
    }

    /// What `descriptor` gives until its end (true) or `deadline`, a failed read or a signal
    /// to the app (false).
    private func readToEnd(_ descriptor: Int32, until deadline: ContinuousClock.Instant) -> ([UInt8], Bool) {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return (output, false) }
            // Ctrl-C or SIGTERM while it runs (caught on whichever thread): stop waiting, so the
            // check is ended with its probes and the app ends as it does anyway.
            guard modhost_guard_pending_signal() == 0 else { return (output, false) }
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: min(milliseconds + 1, 100)))
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0 else { return (output, false) }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return (output, false) }
            guard count > 0 else { return (output, true) }
            output += chunk[0..<count]
        }
    }

    private func failure(_ error: Int32) -> String {
        HostText("check.app.cannot", "could not run 'modhost check': %@", [.plain(String(cString: strerror(error)))]).render(strings)
    }
}
