import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// One title per screen, details under it, a status line only when it changes.
@Suite struct CalmScreensTests {
    /// A world with every shipped module, Ann registered (so the app opens on Home).
    func app() throws -> TestHost {
        let host = try TestHost(entries: [("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
        let register = try host.run(
            arguments: ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n")
        #expect(register.succeeded, "\(register)")
        return host
    }

    /// The app on a real terminal, each answer typed when it asks; what a person saw, top to
    /// bottom (what scrolled away included).
    func run(_ host: TestHost, _ answers: [String]) throws -> String {
        let app = try host.app(rows: 40, columns: 100)
        for answer in answers { try app.answer(answer) }
        let ended = try app.waitForExit()
        #expect(ended.succeeded, "\(ended)")
        return app.screen.transcript + "\n"
    }

    @Test func theGreetingIsShownOnceNotOnEveryReturnHome() throws {
        // Home → Places → back → Settings → back → quit: three visits to Home.
        let output = try run(try app(), ["3", "0", "4", "0", "q"])
        #expect(output.components(separatedBy: "Home\n====\n").count == 4)
        #expect(output.components(separatedBy: "Logged in as Ann <ann@example.com>").count == 2)
    }

    @Test func settingsHasOneTitleWithTheProfileUnderIt() throws {
        let output = try run(try app(), ["4", "0", "q"])
        #expect(output.components(separatedBy: "Settings\n========\n").count == 2, "one title for one visit")
        // On a terminal the numbers are aligned under Settings' two-digit ones.
        #expect(output.contains("Settings\n========\nAnn <ann@example.com>\n   1. My profile: edit display name\n"))
    }

    @Test func aPhotosDetailsComeUnderItsTitle() throws {
        let output = try run(try app(), ["2", "1", "cat", "1", "0", "0", "0", "q"])
        #expect(output.contains("Photo #101\n==========\nType: photo\nTags: cat, kitten, pet\nSize: 48×32, 106 bytes\n"), "\(output)")
        #expect(output.contains("Page 1 of 1 (3 photos)\n  1. cat, kitten, pet — Mira (#101)\n"))
    }
}
