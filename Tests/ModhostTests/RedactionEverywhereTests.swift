import Foundation
import TestSupport
import Testing

/// The same secrets through every path a module's words reach a person by: a failure reason in
/// `modules`, `modules --json` and Settings → About, and a screen's `context.ui.print`.
@Suite struct RedactionEverywhereTests {
    /// A secret, whether the module registers it (no other rule would hide it), and the part
    /// that must never show.
    static let secrets: [(String, Bool, String)] = [
        ("QQ-registered-secret-77", true, "QQ-registered-secret-77"),
        ("https://alice:PA55W0RD@h.example/", false, "PA55W0RD"),
        ("key=SECRETKEY1", false, "SECRETKEY1"),
    ]

    func config(failingIn phase: String, secret: String, registered: Bool) throws -> String {
        let fields = #""config": {"in": "\#(phase)", "how": "fail", "secret": "\#(secret)", "register": \#(registered)}"#
        return try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureMisbehaves", fields), ("Settings", "")]))
    }

    @Test(arguments: secrets)
    func aSecretInAFailureReasonIsRedactedOnEveryPath(secret: String, registered: Bool, hidden: String) throws {
        let config = try config(failingIn: "register", secret: secret, registered: registered)
        let runs: [(String, ProcessResult)] = [
            ("modules", try modhost(["--config", config, "modules"])),
            ("modules --json", try modhost(["--config", config, "modules", "--json"])),
            // Settings is the second module: Home entry 2, then About, then quit.
            ("About", try modhost(["--config", config], input: "2\na\nq\n")),
        ]
        for (path, result) in runs {
            let output = result.stdout + result.stderr
            #expect(output.contains("told to fail with"), "\(path) shows the reason: \(output)")
            #expect(!output.contains(hidden), "\(path) shows the secret: \(output)")
            #expect(output.contains("***"), "\(path)")
        }
    }

    @Test(arguments: secrets)
    func aSecretAScreenPrintsIsRedacted(secret: String, registered: Bool, hidden: String) throws {
        let config = try config(failingIn: "screen", secret: secret, registered: registered)
        let result = try modhost(["--config", config], input: "1\nq\n")
        #expect(result.stdout.contains("told to fail with "), "\(result.stdout)")
        #expect(!result.stdout.contains(hidden), "\(result.stdout)")
        #expect(result.stdout.contains("***"))
    }
}
