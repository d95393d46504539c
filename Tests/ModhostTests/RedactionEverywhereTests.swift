import Foundation
import ModuleHostTesting
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

    func world(failingIn phase: String, secret: String, registered: Bool) throws -> TestHost {
        let fields = #""config": {"in": "\#(phase)", "how": "fail", "secret": "\#(secret)", "register": \#(registered)}"#
        return try TestHost(entries: [("FixtureMisbehaves", fields), ("Settings", "")])
    }

    /// What a person sees on a terminal: the app, each answer typed when it asks.
    func seen(_ host: TestHost, answering answers: [String]) throws -> String {
        let app = try host.app(rows: 40, columns: 120)
        for answer in answers { try app.answer(answer) }
        _ = try app.waitForExit()
        return app.screen.transcript
    }

    @Test(arguments: secrets)
    func aSecretInAFailureReasonIsRedactedOnEveryPath(secret: String, registered: Bool, hidden: String) throws {
        let host = try world(failingIn: "register", secret: secret, registered: registered)
        let modules = try host.run("modules")
        let json = try host.run("modules", "--json")
        let outputs = [
            ("modules", modules.stdout + modules.stderr), ("modules --json", json.stdout + json.stderr),
            // Settings is the second module: Home entry 2, then About, then quit.
            ("About", try seen(host, answering: ["2", "a", "q"])),
        ]
        for (path, output) in outputs {
            #expect(output.contains("told to fail with"), "\(path) shows the reason: \(output)")
            #expect(!output.contains(hidden), "\(path) shows the secret: \(output)")
            #expect(output.contains("***"), "\(path)")
        }
    }

    @Test(arguments: secrets)
    func aSecretAScreenPrintsIsRedacted(secret: String, registered: Bool, hidden: String) throws {
        let host = try world(failingIn: "screen", secret: secret, registered: registered)
        let output = try seen(host, answering: ["1", "q"])
        #expect(output.contains("told to fail with "), "\(output)")
        #expect(!output.contains(hidden), "\(output)")
        #expect(output.contains("***"))
    }

    /// Full screen too: what a screen prints is shown above the next screen, redacted there.
    @Test(arguments: secrets)
    func aSecretAScreenPrintsIsRedactedFullScreen(secret: String, registered: Bool, hidden: String) throws {
        let host = try world(failingIn: "screen", secret: secret, registered: registered)
        let app = try host.app(rows: 24, columns: 120, fullScreen: true)
        try app.waitUntil(describing: "Home, full screen") { $0.isAlternate && $0.contains("Misbehave") }
        app.type("1")
        let screen = try app.waitUntil(describing: "the screen's text") { $0.contains("told to fail with ") }
        #expect(!screen.text.contains(hidden), "\(screen)")
        #expect(screen.text.contains("***"), "\(screen)")
        app.type("q")
        _ = try app.waitForExit()
    }
}
