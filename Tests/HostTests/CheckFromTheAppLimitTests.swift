import Foundation
import ModuleKit
import Testing

@testable import HostCommandLine

/// The app's Check past its limit: a child that never ends, and holds the pipe the app reads
/// through a process of its own group, is ended at the limit with its group, and the app says
/// so; a stopped one too.
@Suite struct CheckFromTheAppLimitTests {
    static func check(running script: String) -> CheckFromTheApp {
        var check = CheckFromTheApp(
            options: [], strings: .none(locale: LocaleSetting(environment: [:])), language: { "en" }, timeouts: [])
        check.limit = .seconds(1)
        // The options and the command word follow as the script's $0 and $1.
        check.replacement = ["/bin/sh", "-c", script]
        return check
    }

    static func groupIsGone(_ pidFile: String) throws -> Bool {
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        guard let group = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
        let deadline = ContinuousClock.now + .seconds(5)
        while kill(-group, 0) == 0, ContinuousClock.now < deadline { usleep(10_000) }
        return kill(-group, 0) == -1 && errno == ESRCH
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["sleep 600 & echo begun; sleep 600", "echo begun; kill -STOP $$"])
    func aCheckThatNeverEndsIsEndedAtTheLimitWithItsGroup(body: String) throws {
        let pidFile = NSTemporaryDirectory() + "check-limit-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let started = ContinuousClock.now
        let lines = Self.check(running: "echo $$ > '\(pidFile)'; \(body)").run()
        let took = ContinuousClock.now - started
        #expect(lines == ["begun", "'modhost check' did not finish within 1 s; run it from a shell to see why"], "\(lines)")
        #expect(took >= .seconds(1), "not before the limit")
        #expect(try Self.groupIsGone(pidFile), "nothing of its group is left")
    }
}
