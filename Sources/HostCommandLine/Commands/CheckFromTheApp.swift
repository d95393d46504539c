import CHostGuard
import Foundation
import HostModel
import ModuleKit

/// `HostInfoRoute.check()` for the app (Settings' Check): `modhost check` itself, in a child
/// process given this run's options, so the app shows exactly what the command says, and no
/// library is loaded again in the app's own process.
struct CheckFromTheApp: Sendable {
    let executable: String
    /// What chooses the child's modules and files, as the option table passes it.
    let options: [String]
    let strings: ModuleStrings
    /// The language the app speaks now (Settings may have chosen another than the
    /// environment's, and the child check never starts Settings to learn it).
    let language: @Sendable () -> String
    /// What check may take: its probes run one module after another, each phase (load,
    /// register, resources) limited by the module's timeout and a second more.
    let limit: Duration

    init(executable: String, options: [String], strings: ModuleStrings, language: @escaping @Sendable () -> String, timeouts: [Duration]) {
        self.executable = executable
        self.options = options
        self.strings = strings
        self.language = language
        limit = timeouts.reduce(.seconds(10)) { $0 + ($1 + .seconds(1)) * 3 }
    }

    /// The lines the command wrote (standard output and error, in order), or one line that says
    /// why there are none.
    func run() -> [String] {
        var ends: [Int32] = [0, 0]
        guard modhost_pipe_cloexec(&ends) == 0 else { return [failure(errno)] }
        var environment = ProcessEnvironment.variables
        // LC_ALL wins over the others where the host reads the language (LocaleSetting).
        environment["LC_ALL"] = language() + ".UTF-8"
        let check = CommandLineTable.command(named: "check")?.word ?? "check"
        // A group of its own: a check that overruns is ended with the probes it started.
        let spawned = ChildCommand.start(
            [executable] + options + [check], output: .descriptor(ends[1]), environment: environment, ownGroup: true)
        close(ends[1])
        defer { close(ends[0]) }
        guard let pid = spawned.pid else { return [failure(spawned.error)] }
        // A signal ends the host from another thread at once (SignalTrap): it ends this too.
        SignalTrap.checkGroup.withLock { $0 = pid }
        defer { SignalTrap.checkGroup.withLock { $0 = 0 } }
        let deadline = ContinuousClock.now + limit
        let output = readToEnd(ends[0], until: deadline)
        var status: Int32?
        while status == nil, ContinuousClock.now < deadline, modhost_guard_pending_signal() == 0 {
            status = ChildCommand.poll(pid)
            if status == nil { usleep(10_000) }
        }
        if status == nil {
            kill(-pid, SIGKILL)
            _ = ChildCommand.wait(pid)
        }
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

    /// What `descriptor` gives until its end or `deadline`.
    private func readToEnd(_ descriptor: Int32, until deadline: ContinuousClock.Instant) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return output }
            // Ctrl-C or SIGTERM while it runs (caught on whichever thread): stop waiting, so the
            // check is ended with its probes and the app ends as it does anyway.
            guard modhost_guard_pending_signal() == 0 else { return output }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: min(remaining.components.seconds * 1000 + 1, 100)))
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            guard ready > 0 else { return output }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return output }
            output += chunk[0..<count]
        }
    }

    private func failure(_ error: Int32) -> String {
        HostText("check.app.cannot", "could not run 'modhost check': %@", [.plain(String(cString: strerror(error)))]).render(strings)
    }
}
