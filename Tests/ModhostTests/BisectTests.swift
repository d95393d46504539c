import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// `bisect` finds any culprit: the command's own module, two independent ones, a pair that
/// fails only together, with modules pinned in; it writes no crash record.
@Suite struct BisectTests {
    static let crashing = #""config": {"in": "start", "how": "fatalError"}"#

    /// The lines of its account, without the count of runs (checked apart).
    func account(_ result: CommandResult) -> [String] {
        result.outputLines.filter { !$0.hasSuffix(" runs") }
    }

    func runs(_ result: CommandResult) -> Int? {
        result.outputLines.last.flatMap { Int($0.dropFirst("modhost bisect: ".count).prefix { $0.isNumber }) }
    }

    @Test func aCommandOfACrashingModuleBlamesThatModule() throws {
        let host = try TestHost(entries: [
            ("Geo", ""), ("FixtureMisbehaves", #""config": {"in": "command", "how": "fatalError"}"#), ("Settings", ""),
        ])
        let result = try host.run("bisect", "--", "fixturemisbehaves", "run")
        #expect(result.status == 1)
        #expect(
            account(result) == [
                "modhost bisect: trying 'modhost fixturemisbehaves run' with every enabled module (3)",
                "modhost bisect: every try keeps 'FixtureMisbehaves': the command needs them, or --keep names them",
                "modhost bisect: it fails with only 'FixtureMisbehaves' (crash, SIGILL); the cause is among them, not in another module",
            ], "\(result)")
        #expect(runs(result) == 2)
        #expect(host.crashRecords == "", "bisect's tries record nothing")
    }

    @Test func twoIndependentCulpritsAreBothNamed() throws {
        let hostile = try HostileLibrary.armedCopy(of: "HostileAbortInConstructor")
        let host = try TestHost(entries: [
            ("Geo", ""), ("FixtureMisbehaves", Self.crashing), ("Settings", ""),
            ("HostileAbortInConstructor", #""library": "\#(hostile)""#),
            ("FixtureProvider", ""),
        ])
        let result = try host.run("bisect", "--", "modules")
        #expect(result.status == 1)
        let found = account(result).filter { $0.contains(" and the modules it requires ") }
        #expect(found.count == 2, "\(result.stdout)")
        #expect(found.contains { $0.contains("it fails with 'FixtureMisbehaves' and") && $0.contains("(crash, SIGILL)") })
        #expect(found.contains { $0.contains("it fails with 'HostileAbortInConstructor' and") && $0.contains("(crash, SIGABRT)") })
        #expect((runs(result) ?? 0) > 2)
        #expect(host.crashRecords == "")
    }

    @Test func aPairThatFailsOnlyTogetherIsNamedAsAPair() throws {
        let host = try TestHost(entries: [("Geo", ""), ("FixtureProvider", ""), ("Settings", ""), ("FixtureJealous", "")])
        // Each alone is fine.
        #expect(try host.run("--disable", "FixtureJealous", "modules").succeeded)
        #expect(try host.run("--disable", "FixtureProvider", "modules").succeeded)
        let result = try host.run("bisect", "--", "modules")
        #expect(result.status == 1)
        #expect(
            account(result).last
                == "modhost bisect: it fails with 'FixtureProvider', 'FixtureJealous' and the modules they require (crash, SIGILL); without any one of them it succeeds",
            "\(result.stdout)")
    }

    @Test func aKeptModuleIsInEveryTryAndAnUnknownOneIsRefused() throws {
        let host = try TestHost(entries: [("Geo", ""), ("FixtureMisbehaves", Self.crashing), ("Settings", "")])
        let result = try host.run("bisect", "--keep", "geo", "--", "modules")
        #expect(
            account(result) == [
                "modhost bisect: trying 'modhost modules' with every enabled module (3)",
                "modhost bisect: every try keeps 'Geo': the command needs them, or --keep names them",
                "modhost bisect: it fails with 'FixtureMisbehaves' and the modules it requires (crash, SIGILL); without it it succeeds",
            ], "\(result)")
        let unknown = try host.run("bisect", "--keep", "Geoo", "--", "modules")
        #expect(unknown.status == 2)
        #expect(unknown.errorLines.first?.hasPrefix("modhost: error: --keep 'Geoo': no module named 'Geoo' in '") == true)
        #expect(unknown.errorLines.first?.hasSuffix("; did you mean 'Geo'?") == true, "\(unknown.stderr)")
    }
}
