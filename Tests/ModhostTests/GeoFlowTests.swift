import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Geo through the real binary: the app, the commands, bad input, durability, `--only`.
@Suite struct GeoFlowTests {
    /// A world of ModuleHostTesting with Geo (and Auth off), shared by every command of one test.
    struct App {
        let host: TestHost
        var config: String { host.config }
        var data: String { host.data }

        init() throws {
            host = try TestHost(entries: [("Auth", #""enabled": false"#), ("Geo", "")])
        }

        func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> CommandResult {
            try host.run(arguments: arguments, input: input, environment: environment)
        }

        func list() throws -> String { try run(["geo", "list", "--json"]).stdout }
    }

    @Test func addThroughTheAppThenListAsJSON() throws {
        let app = try App()
        // Home → Places (2: Geo is second in modules.json) → Add: country, then city → Back → Quit.
        let session = try app.run([], input: "2\n1\nfrance\nLyon\n1\nDE\nKöln\n0\nq\n")
        #expect(session.status == 0)
        #expect(session.stdout.contains("  2. Places\n  q Quit\n"))
        #expect(session.stdout.contains("Saved Köln in Germany.\n"))
        #expect(session.stdout.contains("France (FR)\n  · Lyon\nGermany (DE)\n  · Köln\n"))
        #expect(
            try app.list()
                == #"{"cities":[{"city":"Lyon","country":"FR","countryName":"France"},{"city":"Köln","country":"DE","countryName":"Germany"}],"schemaVersion":1}"#
                + "\n"
        )
        let german = try app.run(["geo", "list"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(german.stdout == "Deutschland (DE)\n  Köln\nFrankreich (FR)\n  Lyon\n")
    }

    @Test func commandsAddRenameRemove() throws {
        let app = try App()
        #expect(try app.run(["geo", "add", "--country", "IT", "--city", "Roma"]).stdout == "Saved Roma in Italy.\n")
        #expect(try app.run(["geo", "rename", "--country", "Italy", "--city", "roma", "--to", "Rome"]).stdout == "Renamed roma to Rome.\n")
        let unconfirmed = try app.run(["geo", "remove", "--country", "IT", "--city", "Rome"])
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.stderr.hasPrefix("modhost: error: geo remove: Not on a terminal: pass --yes to delete without asking.\n"))
        #expect(try app.list().contains("Rome"))
        #expect(try app.run(["geo", "remove", "--country", "IT", "--city", "Rome", "--yes"]).stdout == "Deleted Rome (Italy).\n")
        #expect(try app.list() == #"{"cities":[],"schemaVersion":1}"# + "\n")
    }

    @Test(arguments: [
        (["--country", "FR", "--city", ""], 2, "modhost: error: geo add: option '--city' is required\n"),
        (["--country", "FR", "--city", "   "], 1, "modhost: error: geo add: A name is required.\n"),
        (
            ["--country", "FR", "--city", String(repeating: "x", count: 10_000)], 1,
            "modhost: error: geo add: That name is too long (at most 100 characters).\n"
        ),
        (["--country", "FR", "--city", "Ly\u{1B}[31mon"], 1, "modhost: error: geo add: Names cannot contain control characters.\n"),
        (["--country", "Atlantis", "--city", "X"], 1, "modhost: error: geo add: 'Atlantis' is not a country.\n"),
        (["--country", "Itly", "--city", "X"], 1, "modhost: error: geo add: 'Itly' is not a country. Did you mean: Italy?\n"),
        (["--country", "FR", "--city", "lyon"], 1, "modhost: error: geo add: lyon is already saved in France.\n"),
    ])
    func badInputGetsAMessageAndStoredDataIsUntouched(arguments: [String], status: Int32, message: String) throws {
        let app = try App()
        _ = try app.run(["geo", "add", "--country", "FR", "--city", "Lyon"])
        let before = try app.list()
        let result = try app.run(["geo", "add"] + arguments)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix(message))
        #expect(try app.list() == before)
    }

    @Test func anAcknowledgedAddSurvivesKill9() throws {
        let app = try App()
        let process = try app.host.start(arguments: [])
        process.write("2\n1\nPT\nPorto\n")
        try process.waitForOutput(containing: "Portugal (PT)\n  · Porto")
        process.send(SIGKILL)
        _ = try process.wait()
        #expect(try app.list().contains(#"{"city":"Porto","country":"PT","countryName":"Portugal"}"#))
    }

    @Test func geoRunsAlone() throws {
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Auth", ""), ("Geo", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "--only", "Geo", "modules"], environment: ["MODHOST_DATA_DIR": data])
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("Auth disabled 1.0.0 AuthRoute - -"))
        #expect(lines.contains("note: not selected by --only Geo"))
        #expect(lines.contains("Geo active 1.0.0 GeoRoute - SettingsRoute"))
        // With only Geo, the app opens on Home (no Welcome: Auth is not running).
        let app = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "--only", "Geo"], input: "q\n", environment: ["MODHOST_DATA_DIR": data])
        #expect(app.stdout.contains("Home\n====\n  2. Places\n  q Quit\n"))
    }
}
