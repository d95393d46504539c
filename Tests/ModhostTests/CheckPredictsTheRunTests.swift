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
                "modhost: error: module 'Photos': threw in register: config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY"
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
        #expect(
            result.stdout
                == #"{"problems":[{"module":"Photos","reason":"threw in register: config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY","state":"failed"},{"module":"FixtureNeedsNobody","reason":"requires 'UnprovidedRoute', which no active module provides","state":"skipped"}],"schemaVersion":1}"#
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
}
