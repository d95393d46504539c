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
    /// Far above what check's probes may take (each is limited by its module's timeout).
    var limit = Duration.seconds(120)

    /// The lines the command wrote (standard output and error, in order), or one line that says
    /// why there are none.
    func run() -> [String] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return [failure(errno)] }
        // Close-on-exec (Glibc's module has no pipe2): no grandchild, such as check's probes,
        // holds the pipe open; the child's own copies are the dup2'd 1 and 2.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let check = CommandLineTable.command(named: "check")?.word ?? "check"
        let spawned = ChildCommand.start([executable] + options + [check], output: .descriptor(ends[1]))
        close(ends[1])
        defer { close(ends[0]) }
        guard let pid = spawned.pid else { return [failure(spawned.error)] }
        var output: [UInt8] = []
        let deadline = ContinuousClock.now + limit
        var finished = false
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(clamping: remaining.components.seconds * 1000 + 1))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                finished = true
                break
            }
            output += chunk[0..<count]
        }
        if !finished { kill(pid, SIGKILL) }
        _ = ChildCommand.wait(pid)
        var lines = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        // In the app every line is the check's: "modhost: error: " before each says nothing.
        let lead = Console.errorLead
        lines = lines.map { $0.hasPrefix(lead) ? String($0.dropFirst(lead.count)) : $0 }
        if !finished {
            let text = HostText(
                "check.app.unfinished", "'modhost check' did not finish within %@ s; run it from a shell to see why",
                [.plain("\(limit.components.seconds)")])
            lines.append(text.render(strings))
        }
        return lines
    }

    private func failure(_ error: Int32) -> String {
        HostText("check.app.cannot", "could not run 'modhost check': %@", [.plain(String(cString: strerror(error)))]).render(strings)
    }
}
