import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `check` runs, in its child process, what a start runs before any command, `register`
/// included: a configuration a module refuses there fails `check` too, and nothing is written
/// in the data folder.
@Suite struct CheckPredictsTheRunTests {
    @Test func aModuleThatRefusesItsConfigurationInRegisterFailsCheck() throws {
        let host = try TestHost(
            entries: [("Geo", ""), ("Photos", #""config": {"source": "pixabay"}"#)], environment: ["PIXABAY_API_KEY": ""])
        let check = try host.run("check")
        #expect(check.status == 1)
        #expect(
            check.errorLines == [
                "modhost: error: '\(host.config)': modules[1] ('Photos'): threw in register: config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY"
            ], "\(check)")
        // The run it predicts says the same.
        let run = try host.run("photos", "search", "cat")
        #expect(run.status == 1)
        #expect(run.stderr.contains("threw in register: config.source is 'pixabay' but there is no API key"), "\(run.stderr)")
        #expect(!host.dataFiles.contains { $0.hasPrefix("Geo/") || $0.hasPrefix("Photos/") }, "check wrote nothing: \(host.dataFiles)")
    }

    /// `check --json` gives the same list in the one JSON layout.
    @Test func checkJSONListsTheSameProblems() throws {
        let host = try TestHost(
            entries: [("Geo", ""), ("Photos", #""config": {"source": "pixabay"}"#), ("FixtureNeedsNobody", "")],
            environment: ["PIXABAY_API_KEY": ""])
        let result = try host.run("check", "--json")
        #expect(result.status == 1)
        let file = host.config
        #expect(
            result.stdout
                == #"{"problems":[{"entry":1,"file":""# + file
                + #"","module":"Photos","reason":"threw in register: config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY","state":"failed"},{"entry":2,"file":""#
                + file
                + #"","module":"FixtureNeedsNobody","reason":"requires 'UnprovidedRoute', which no active module provides","state":"skipped"}],"schemaVersion":1}"#
                + "\n", "\(result)")
        let good = try TestHost(entries: [("Geo", "")]).run("check", "--json")
        #expect(good.succeeded && good.stdout == #"{"problems":[],"schemaVersion":1}"# + "\n", "\(good)")
    }

    @Test func aGoodConfigurationStillPassesAndCreatesNothing() throws {
        let host = try TestHost(entries: [("Auth", ""), ("Geo", ""), ("Settings", "")])
        let check = try host.run("check")
        #expect(check.succeeded, "\(check)")
        #expect(host.dataFiles == [], "register ran in a throwaway data folder: \(host.dataFiles)")
    }

    /// The file of the issue: a bad pin, a value out of range and a misspelt key, in one
    /// entry, and two problems in another. Every one is told in one run, each naming the file,
    /// the entry, the key, the value found and what is expected.
    @Test func everyProblemOfTheFileAndOfItsModulesInOneRun() throws {
        let host = try TestHost(entries: [])
        let config = host.config
        try write(
            #"""
            {"modules": [
              {"name": "Auth", "enabled": true},
              {"name": "Photos", "enabled": true, "sha256": "abc", "config": {"sorce": "catalog", "perPage": 500}},
              {"name": "Geo", "enabled": true, "startTimeout": "5", "config": {"x": 1}}
            ]}
            """#, to: config)
        let check = try host.run("check")
        #expect(check.status == 1)
        #expect(
            check.errorLines == [
                "modhost: error: '\(config)': modules[1] ('Photos'): 'sha256' must be 64 hex digits, found 'abc'",
                "modhost: error: '\(config)': modules[2] ('Geo'): 'startTimeout' must be a number of seconds, found \"5\"",
                "modhost: error: '\(config)': modules[1] ('Photos'): not loaded while its 'library' or 'sha256' in the file is wrong (above)",
                "modhost: error: '\(config)': modules[2] ('Geo'): config.x is not a setting; this module takes none",
            ], "\(check)")
        // With the pin removed, Photos' own problems show, both at once.
        try host.write([.shipped("Auth"), .shipped("Photos", config: #"{"sorce": "catalog", "perPage": 500}"#)])
        let fixed = try host.run("check")
        #expect(
            fixed.errorLines == [
                "modhost: error: '\(config)': modules[1] ('Photos'): config.sorce is not a setting; did you mean 'source'?",
                "modhost: error: '\(config)': modules[1] ('Photos'): config.perPage is 500; expected a whole number from 3 to 200",
            ], "\(fixed)")
    }

    /// Photos checks its catalog for `check` (its own resource check): a file that does not
    /// exist fails check, as it would fail the first search.
    @Test func aCatalogThatDoesNotExistFailsCheckAsItFailsTheSearch() throws {
        let host = try TestHost(entries: [("Photos", #""config": {"catalog": "/nonexistent/catalog.json"}"#)])
        let check = try host.run("check")
        #expect(
            check.errorLines == [
                "modhost: error: '\(host.config)': modules[0] ('Photos'): config.catalog '/nonexistent/catalog.json' does not exist"
            ], "\(check)")
        let search = try host.run("photos", "search", "cat")
        #expect(search.status != 0 && search.stderr.contains("/nonexistent/catalog.json"), "\(search)")
        try host.write([.shipped("Photos")])
        #expect(try host.run("check").succeeded, "the shipped catalog passes")
    }

    /// A module's register and its resource check run in the child under the guard: a crash
    /// or hang there names the phase, and the problems a check reports are redacted.
    @Test func aModulesRegisterAndResourceCheckAreGuardedAndNamed() throws {
        let crash = try TestHost(entries: [("FixtureMisbehaves", #""config": {"in": "register", "how": "raise"}"#)])
        #expect(
            try crash.run("check").errorLines == [
                "modhost: error: '\(crash.config)': modules[0] ('FixtureMisbehaves'): crashes the host in register (SIGSEGV, checked in a child process)"
            ])
        let hang = try TestHost(entries: [
            ("FixtureMisbehaves", #""startTimeout": 0.5, "config": {"in": "checkResources", "how": "block"}"#)
        ])
        #expect(
            try hang.run("check").errorLines == [
                "modhost: error: '\(hang.config)': modules[0] ('FixtureMisbehaves'): did not return from checkResources within 0.5 s (checked in a child process); it would hang the host"
            ])
        let reports = try TestHost(entries: [
            ("FixtureMisbehaves", #""config": {"in": "checkResources", "how": "fail", "secret": "hunter22", "register": true}"#)
        ])
        let reported = try reports.run("check")
        #expect(
            reported.errorLines == [
                "modhost: error: '\(reports.config)': modules[0] ('FixtureMisbehaves'): config.trigger is not there",
                "modhost: error: '\(reports.config)': modules[0] ('FixtureMisbehaves'): config.secret is ***",
            ], "\(reported)")
        #expect(reports.crashRecords.isEmpty && crash.crashRecords.isEmpty, "check writes no crash record")
    }

    /// A file that cannot be read at all: its parse error alone, in `--json` too.
    @Test func aFileThatIsNotJSONGetsItsParseErrorAloneInEitherLayout() throws {
        let host = try TestHost(entries: [])
        try write(#"{"modules": ["#, to: host.config)
        let check = try host.run("check")
        #expect(check.status == 1 && check.errorLines.count == 1 && check.stderr.contains("is not valid JSON"), "\(check)")
        let json = try host.run("check", "--json")
        #expect(json.status == 1)
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let problems = document?["problems"] as? [[String: Any]]
        #expect(problems?.count == 1 && problems?.first?["file"] as? String == host.config, "\(json)")
        #expect((problems?.first?["reason"] as? String)?.hasPrefix("is not valid JSON") == true, "\(json)")
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
