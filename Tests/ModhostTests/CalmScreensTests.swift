import Foundation
import TestSupport
import Testing

/// One title per screen, details under it, a status line only when it changes.
@Suite struct CalmScreensTests {
    func app() throws -> (config: String, data: String) {
        let config = try TestEnvironment.write(
            TestEnvironment.modulesJSON([("Auth", ""), ("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let register = try ChildProcess.run(
            TestEnvironment.modhost,
            ["--config", config, "auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n", environment: ["MODHOST_DATA_DIR": data])
        #expect(register.status == 0)
        return (config, data)
    }

    func run(_ app: (config: String, data: String), _ input: [String]) throws -> String {
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", app.config], input: input.map { $0 + "\n" }.joined(),
            environment: ["MODHOST_DATA_DIR": app.data])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
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
        #expect(output.contains("Settings\n========\nAnn <ann@example.com>\n  1. My Profile: edit display name\n"))
    }

    @Test func aPhotosDetailsComeUnderItsTitle() throws {
        let output = try run(try app(), ["2", "1", "cat", "1", "0", "0", "0", "q"])
        #expect(output.contains("Photo #101\n==========\n#101 photo\nTags: cat, kitten, pet\nSize: 48×32, 106 bytes\n"), "\(output)")
        #expect(output.contains("Page 1 of 1 (3 photos)\n  1. cat, kitten, pet — Mira (#101)\n"))
    }
}
