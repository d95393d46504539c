import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The library's worlds, on the real host: commands, secrets, JSON, the app on a terminal,
/// hangs and crashes, as a module's author would use them.
@Suite struct TestHostTests {
    func world(_ modules: [TestHost.Module], language: String = "en") throws -> TestHost {
        try TestHost(modules: modules, executable: TestEnvironment.modhost, language: language)
    }

    struct Cities: Decodable {
        struct City: Decodable {
            let city: String
            let country: String
        }
        let cities: [City]
    }

    /// Keys sent one after another, then one wait: the wait ends only once the program has
    /// read them all and drawn what they did (full screen, where each key acts at once).
    @Test func severalKeysThenOneWaitSeeTheirWholeEffect() throws {
        let host = try world([.shipped("Photos", config: #"{"source": "catalog"}"#), .shipped("Geo"), .shipped("Settings")])
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil { $0.isAlternate && $0.contains("Settings") }
        app.type("3")
        app.press(.down)
        app.press(.down)
        app.press(.down)
        try app.waitForInput()
        #expect(app.screen.lines.first?.contains("Home › Settings") == true, "\(app.screen)")
        #expect(app.screen.highlightedLines.last?.contains("13. Photos: Safe search") == true, "three rows down: \(app.screen)")
        app.type("q")
        _ = try app.waitForExit()
    }

    @Test func aCommandRunsInItsOwnWorldAndItsJSONDecodes() throws {
        let host = try world([.shipped("Geo"), .shipped("Settings")])
        let added = try host.run("geo", "add", "--country", "FR", "--city", "Paris")
        #expect(added.succeeded, "\(added)")
        #expect(added.stdout.contains("Paris"))
        let listed = try host.json(Cities.self, "geo", "list", "--json")
        #expect(listed.cities.map(\.city) == ["Paris"])
        #expect(host.dataFiles.contains { $0.hasPrefix("Geo/") }, "\(host.dataFiles)")
        // Another world sees none of it.
        let other = try world([.shipped("Geo")])
        #expect(try other.json(Cities.self, "geo", "list", "--json").cities.isEmpty)
    }

    @Test func secretsComeOnStandardInputAndTheLanguageIsTheWorlds() throws {
        let host = try world([.shipped("Auth")], language: "fr")
        let registered = try host.run(
            arguments: ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n")
        #expect(registered.succeeded, "\(registered)")
        #expect(!registered.stdout.contains("secret12!"))
        let refused = try host.run("auth", "login", "--email", "ann@example.com", "--password-stdin", input: "wrong-one\n")
        #expect(refused.status == 1)
        #expect(refused.errorLines.first?.hasPrefix("modhost: erreur") == true, "\(refused.stderr)")
    }

    @Test func aModuleOfTheTestsOwnLoadsBesideTheShippedOnes() throws {
        let host = try world([.shipped("Geo"), .library(TestEnvironment.library("FixtureMisbehaves"))])
        #expect(try host.module("FixtureMisbehaves")?.state == "active")
        #expect(try host.run("fixturemisbehaves", "run").stdout == "fine\n")
        #expect(try host.modules().map(\.name) == ["Geo", "FixtureMisbehaves"])
    }

    @Test func aCommandThatHangsFailsTheTestAndIsNamed() throws {
        let host = try world([.library(TestEnvironment.library("FixtureMisbehaves"), config: #"{"in": "command", "how": "block"}"#)])
        #expect {
            _ = try host.run("fixturemisbehaves", "run", timeout: .seconds(2))
        } throws: { error in
            "\(error)".contains("'\(TestEnvironment.modhost) fixturemisbehaves run' did not end within 2.0 s")
        }
    }

    @Test func aCrashIsSeenAsTheHostSawIt() throws {
        let host = try world([
            .shipped("Geo"), .library(TestEnvironment.library("FixtureMisbehaves"), config: #"{"in": "start", "how": "raise"}"#),
        ])
        let crashed = try host.run("modules")
        #expect(crashed.signal == SIGSEGV, "\(crashed)")
        #expect(crashed.stderr.contains("module 'FixtureMisbehaves' crashed the host"), "\(crashed.stderr)")
        // The next start reads what the crashed process left and keeps it as a record.
        let after = try #require(try host.module("FixtureMisbehaves"))
        #expect(host.crashRecords.contains("FixtureMisbehaves"))
        #expect(after.state == "failed")
        #expect(after.reason?.contains("crashed the host") == true, "\(after.reason ?? "")")
        #expect(try host.module("Geo")?.state == "active")
    }

    @Test func theAppRunsOnARealTerminal() throws {
        let host = try world([.shipped("Geo"), .shipped("Settings")])
        let app = try host.app(rows: 30, columns: 100)
        try app.waitFor("Home")
        try app.choose("Places")
        try app.waitFor("Add a city")
        app.resize(rows: 20, columns: 60)
        #expect(app.screen.rows == 20 && app.screen.columns == 60)
        app.press(.control("c"))
        let ended = try app.waitForExit()
        #expect(ended.signal == nil, "Ctrl-C ends the app, not a signal death: \(ended)")
        #expect(!app.screen.transcript.isEmpty)
    }

    /// "Waits for input" means blocked reading the terminal, asked of the kernel: a program that
    /// never reads is never taken for one that asks.
    @Test func waitingForInputIsWhatTheKernelSays() throws {
        let reader = try TerminalSession(["/bin/sh", "-c", "printf 'Name? '; read name; echo \"hi $name\""], environment: [:])
        try reader.answer("Ada")
        _ = try reader.waitForExit()
        #expect(reader.screen.lines.prefix(2) == ["Name? Ada", "hi Ada"])
        let sleeper = try TerminalSession(["/bin/sleep", "30"], environment: [:])
        #expect(throws: HostTestingError.self) { try sleeper.waitForInput(timeout: .milliseconds(300)) }
    }

    /// A wait for input ends only once what the program wrote before it blocked is on the
    /// screen. Written just before a `read`, the output can still be in the terminal's flip
    /// buffer when the program is seen blocked: with the kernel's worker kept off the CPU (a
    /// real-time loop beside it), the wait ended on the old screen about once in 200 answers.
    @Test func aWaitSeesWhatTheProgramWroteJustBeforeItBlocked() throws {
        let echo = try TerminalSession(
            ["/bin/sh", "-c", "while read line; do printf 'got %s\\n' \"$line\"; done"], environment: [:], rows: 6, columns: 40)
        var late: [Int] = []
        for answer in 0..<300 {
            try echo.answer("k\(answer)")
            try echo.waitForInput()
            if !echo.screen.contains("got k\(answer)") { late.append(answer) }
        }
        #expect(late.isEmpty, "the screen lacked the answer to \(late)")
    }

    @Test func withoutAHostItSaysHowToPointAtOne() {
        #expect {
            _ = try TestHost(modules: [], executable: "/nonexistent/modhost")
        } throws: { error in
            "\(error)".contains("set MODHOST_EXECUTABLE")
        }
    }
}
