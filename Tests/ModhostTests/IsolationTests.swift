import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A module in a process of its own, with the real `modhost` and real modules: its routes are
/// called from the host through generated proxies, and each way it can fail — a crash, an
/// exit, a hang, a flood of frames nobody asked for, a kill from outside — ends only its
/// process, named in one line, while the host finishes the command with a clear error.
@Suite struct IsolationTests {
    /// A world of FixtureIsolatedGeo (misbehaving as `config` says) and FixtureRouteUser, which
    /// lists the cities of whichever module provides GeoRoute.
    func world(_ config: String = "{}", startTimeout: Double = 10) throws -> TestHost {
        try TestHost(entries: [
            (
                "FixtureIsolatedGeo",
                #""library": "\#(TestEnvironment.library("FixtureIsolatedGeo"))", "config": \#(config), "startTimeout": \#(startTimeout)"#
            ),
            ("FixtureRouteUser", #""library": "\#(TestEnvironment.library("FixtureRouteUser"))""#),
        ])
    }

    struct Report: Decodable {
        struct Module: Decodable {
            let name: String
            let state: String
            let reason: String?
            let isolation: String
            let processID: Int32?
        }
        let modules: [Module]
    }

    @Test func aRealModulesRouteIsCalledInItsOwnProcess() throws {
        let host = try TestHost(entries: [
            ("Geo", ""), ("FixtureRouteUser", #""library": "\#(TestEnvironment.library("FixtureRouteUser"))""#),
        ])
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "Lyon").succeeded)
        let listed = try host.run("--isolate", "Geo", "fixtureRouteUser", "cities")
        #expect(listed.stdout == "1 cities: Lyon (FR)\n", "\(listed)")
        #expect(listed.stderr == "")
        // Each call is counted and timed; the stop says so at the info level.
        let counted = try host.run("--isolate", "Geo", "--log-level", "info", "fixtureRouteUser", "cities")
        #expect(counted.stderr.contains("modhost: info: module 'Geo': GeoRoute.savedCities() called 1 times, p50 "), "\(counted)")
        let report = try host.json(Report.self, "--isolate", "Geo", "modules", "--json")
        let geo = try #require(report.modules.first { $0.name == "Geo" })
        #expect(geo.isolation == "process")
        #expect((geo.processID ?? 0) > 0)
        #expect(geo.state == "active")
        let user = try #require(report.modules.first { $0.name == "FixtureRouteUser" })
        #expect(user.isolation == "none")
        #expect(user.processID == nil)
        // The module runs in the host's process unless told otherwise.
        let plain = try host.json(Report.self, "modules", "--json")
        #expect(plain.modules.allSatisfy { $0.isolation == "none" && $0.processID == nil })
    }

    @Test func aCommandOfAnIsolatedModuleRunsInItsProcessOnTheSameTerminal() throws {
        let host = try TestHost(entries: [("Geo", "")])
        let added = try host.run("--isolate", "Geo", "geo", "add", "--country", "FR", "--city", "Lyon")
        #expect(added.succeeded, "\(added)")
        #expect(added.stdout == "Saved Lyon in France.\n")
        // The same data folder: what the isolated module saved, the in-process one reads.
        #expect(try host.run("geo", "list").stdout == "France (FR)\n  Lyon\n")
        let again = try host.run("--isolate", "Geo", "geo", "add", "--country", "FR", "--city", "Lyon")
        #expect(again.status == 1)
        #expect(again.stderr == "modhost: error: geo add: Lyon is already saved in France.\n", "\(again)")
        let unknown = try host.run("--isolate", "Geo", "geo", "lst")
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("module 'Geo' has no command 'lst'; did you mean 'list'?"), "\(unknown)")
        // It ran in another process than the host's.
        let isolated = try world()
        let running = try isolated.start(arguments: ["--isolate", "FixtureIsolatedGeo", "fixtureIsolatedGeo", "cities"])
        let printed = try running.wait()
        let pid = printed.stdout.split(separator: " ").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(printed.stdout.hasPrefix("Porto (PT), from process "), "\(printed)")
        #expect(pid != nil && pid != running.processIdentifier, "\(printed)")
        // Its help comes from there too: the commands it has, not the none the host sees.
        let help = try isolated.run("--isolate", "FixtureIsolatedGeo", "fixtureIsolatedGeo", "--help")
        #expect(help.stdout.contains("modhost fixtureisolatedgeo cities"), "\(help)")
        #expect(!help.stderr.contains("declares the commands"), "\(help)")
    }

    /// Photos' search waits for work on threads of its own, which read its settings from the
    /// host while the host waits for the command: served all the same, and its settings
    /// registered from its process.
    @Test func photosSearchRunsInItsOwnProcess() throws {
        let host = try TestHost(entries: [("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
        let inProcess = try host.run("photos", "search", "cat", "--per-page", "3")
        let isolated = try host.run("--isolate", "Photos", "photos", "search", "cat", "--per-page", "3")
        #expect(isolated.succeeded, "\(isolated)")
        #expect(isolated.stdout == inProcess.stdout, "\(isolated)")
        #expect(isolated.stdout.hasPrefix("Page 1 of 1 (3 photos)"), "\(isolated)")
        // Its settings, registered from its process, are read there as in the host's.
        #expect(isolated.stderr == "", "\(isolated)")
    }

    @Test func aCrashInACommandEndsOnlyTheModulesProcess() throws {
        let host = try world(#"{"in": "command", "how": "raise"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureIsolatedGeo", "cities")
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("module 'FixtureIsolatedGeo' is unavailable: its process closed the link; its process ("), "\(result)")
        #expect(result.stderr.contains("crashed (signal 11"), "\(result)")
        #expect(
            result.errorLines.last?.hasPrefix("modhost: error: fixtureisolatedgeo cities: module 'FixtureIsolatedGeo' is unavailable")
                == true)
    }

    /// The app with Geo in its own process: its Home entry comes from there, and its screens
    /// run there on the same terminal, in the line mode and full screen, then Home again.
    @Test func anIsolatedModulesScreensRunInItsProcessOnTheAppsTerminal() throws {
        let host = try TestHost(entries: [("Geo", "")])
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "Lyon").succeeded)
        // Line by line, through a pipe: each process reads only its own lines.
        let piped = try host.run(arguments: ["--isolate", "Geo"], input: "1\n0\nq\n")
        #expect(piped.succeeded, "\(piped)")
        #expect(piped.stdout.contains("Places\n======\nFrance (FR)\n  · Lyon"), "\(piped)")
        #expect(piped.stdout.hasSuffix("Goodbye.\n"), "\(piped)")
        #expect(piped.stdout.components(separatedBy: "\nHome\n====").count == 3, "Home, Places, Home again: \(piped)")
        // A quit in the module's screens quits the app.
        let quit = try host.run(arguments: ["--isolate", "Geo"], input: "1\nq\n")
        #expect(quit.succeeded, "\(quit)")
        #expect(quit.stdout.components(separatedBy: "\nHome\n====").count == 2, "Home once, then Places: \(quit)")
        #expect(quit.stdout.hasSuffix("Which one? Goodbye.\n"), "\(quit)")

        let app = try host.app("--isolate", "Geo", rows: 24, columns: 100, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.contains("Places") }
        app.type("1")
        try app.waitUntil(describing: "Places, from Geo's process") { $0.isAlternate && $0.contains("Lyon") && $0.contains("Add a city") }
        app.press(.escape)
        try app.waitUntil(describing: "Home again") { $0.isAlternate && $0.lines.first?.contains("Home") == true && !$0.contains("Lyon") }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// The process ids of `parent`'s children running `modhost __module-host`.
    /// Kills the one module process below `app` from outside once Home shows, and waits until
    /// the host says so; the killed process's id, or `nil` (an issue recorded) when it did not.
    static func killItsModuleProcessAtHome(_ app: RunningProgram) throws -> Int32? {
        try app.waitForOutput(containing: "Which one?")
        let children = moduleProcesses(of: app.processIdentifier)
        try #require(children.count == 1, "\(children)")
        kill(children[0], SIGKILL)
        let deadline = ContinuousClock.now + .seconds(60)
        while !app.stderr.contains("(\(children[0])) was ended from outside") {
            guard ContinuousClock.now < deadline else {
                Issue.record("not named: \(app.stderr)")
                return nil
            }
            usleep(10_000)
        }
        return children[0]
    }

    static func moduleProcesses(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return status.contains("\nPPid:\t\(parent)\n") && command.contains("__module-host")
        }
    }

    @Test func aKillFromOutsideWhileTheAppWaitsAtHomeIsNamedThenTheModuleIsUsedAgain() throws {
        let host = try TestHost(entries: [("Geo", "")])
        #expect(try host.run("geo", "add", "--country", "FR", "--city", "Lyon").succeeded)
        let app = try host.start(arguments: ["--isolate", "Geo"])
        guard let killed = try Self.killItsModuleProcessAtHome(app) else { return }
        let said = "module 'Geo' is unavailable: its process ended while it was not called; its process (\(killed)) was ended from outside"
        #expect(app.stderr.contains(said), "\(app.stderr)")
        // Places again: its process starts again, and the city is there.
        app.write("1\n0\nq\n")
        app.closeInput()
        let result = try app.wait()
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout.contains("France (FR)\n  · Lyon"), "\(result)")
        #expect(result.stderr.contains("this does not count against it"))
        #expect(result.stderr.contains("starting its process again"))
    }

    @Test func isolationInModulesJSONRunsTheModuleInItsOwnProcess() throws {
        let host = try world()
        let text = try String(contentsOfFile: host.config, encoding: .utf8)
            .replacingOccurrences(of: #""name": "FixtureIsolatedGeo","#, with: #""name": "FixtureIsolatedGeo", "isolation": "process","#)
        try text.write(toFile: host.config, atomically: true, encoding: .utf8)
        let report = try host.json(Report.self, "modules", "--json")
        #expect(report.modules.first?.isolation == "process")
        let listed = try host.run("fixtureRouteUser", "cities")
        #expect(listed.stdout == "1 cities: Porto (PT)\n", "\(listed)")

        let wrong = text.replacingOccurrences(of: #""isolation": "process""#, with: #""isolation": "thread""#)
        try wrong.write(toFile: host.config, atomically: true, encoding: .utf8)
        let refused = try host.run("modules")
        #expect(!refused.succeeded)
        #expect(refused.stderr.contains(#"'isolation' must be "none" or "process", found 'thread'"#), "\(refused)")
    }

    /// What a module's process writes itself while the host has not lent it the terminal is
    /// shown by the host on standard error, its control characters made visible: the terminal
    /// obeys none of it, and a command's output holds none of it.
    @Test func whatAModulesProcessWritesOutsideALoanIsShownNeverObeyed() throws {
        let host = try world(#"{"in": "start", "how": "escapes"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(result.succeeded, "\(result)")
        #expect(result.stdout == "1 cities: Porto (PT)\n", "\(result)")
        #expect(result.stderr.contains("out:?]0;taken??[2J\n"), "\(result.stderr)")
        #expect(result.stderr.contains("err:?[31mred\n"), "\(result.stderr)")
        #expect(result.stderr.contains("last words"), "said as it ends: \(result.stderr)")
        #expect(!(result.stdout + result.stderr).unicodeScalars.contains("\u{1B}"))
        #expect(result.stderr.contains("printed:?[1mbold\n"), "\(result.stderr)")
        // A command of the module's own runs on the terminal lent to its process: what it
        // printed before (buffered) is not part of the command's output.
        let command = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureisolatedgeo", "cities")
        #expect(command.succeeded, "\(command)")
        #expect(command.stdout.hasPrefix("Porto (PT), from process ") && !command.stdout.contains("printed"), "\(command)")
        #expect(command.stderr.contains("printed:?[1mbold\n"), "\(command.stderr)")
    }

    /// Each fault in a route call: the line naming the module and how its process ended, then
    /// the command's error; the host itself exits with status 1, never by a signal.
    @Test(arguments: [
        ("raise", "its process (", "crashed (signal 11"),
        // Its wait status reads as a kill from outside; its filter told the host who sent it.
        ("killself", "its process (", "ended itself (signal 9"),
        ("exit", "its process closed the link", "exited with status 3"),
        ("flood", "cut off: it answered call", "its process ("),
        ("pings", "cut off: it sent a ping, which a module's process does not send", "its process ("),
    ])
    func aFaultInARouteCallEndsOnlyTheModulesProcess(how: String, cause: String, end: String) throws {
        let host = try world(#"{"in": "call", "how": "\#(how)"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(result.signal == nil, "\(result)")
        #expect(result.status == 1, "\(result)")
        let named = result.errorLines.filter { $0.hasPrefix("modhost: error: module 'FixtureIsolatedGeo' is unavailable:") }
        #expect(named.count == 1, "\(result)")
        #expect(named.first?.contains(cause) == true, "\(result)")
        #expect(named.first?.contains(end) == true, "\(result)")
        #expect(
            result.errorLines.last?.hasPrefix("modhost: error: fixturerouteuser cities: module 'FixtureIsolatedGeo' is unavailable") == true
        )
        // Nothing is held against it at the next start: the module and its user work again.
        try host.write([
            .library(TestEnvironment.library("FixtureIsolatedGeo")), .library(TestEnvironment.library("FixtureRouteUser")),
        ])
        let again = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(again.stdout == "1 cities: Porto (PT)\n", "\(again)")
    }

    @Test func aHangInARouteCallIsCutAtItsLimitAndItsProcessEnded() throws {
        let host = try world(#"{"in": "call", "how": "block"}"#, startTimeout: 1)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(
                "module 'FixtureIsolatedGeo' is unavailable: it did not answer 'GeoRoute.savedCities()' within 1 s; its process ("),
            "\(result)")
        #expect(result.stderr.contains("was ended by the host (signal 9"), "\(result)")
    }

    /// A module that hangs in its stop is named as one that hangs anywhere: its process ends
    /// after its answer to the stop, and no answer is not taken for that end. The host's limit
    /// and its process's own guard, both of 1 s, race: either names it.
    @Test func aHangInStopIsNamed() throws {
        let host = try world(#"{"in": "stop", "how": "block"}"#, startTimeout: 1)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "modules")
        #expect(result.stdout.contains("FixtureIsolatedGeo active"), "\(result)")
        let named =
            result.stderr.contains("module 'FixtureIsolatedGeo' is unavailable: it did not answer '__module.stop' within 1 s")
            || result.stderr.contains("module 'FixtureIsolatedGeo' is unavailable: its process closed the link")
        #expect(named, "\(result)")
    }

    /// A process that keeps sending a byte now and then never answers: its call is cut at its
    /// limit all the same.
    @Test func aTrickleOfBytesDoesNotKeepACallAlive() throws {
        let host = try world(#"{"in": "call", "how": "trickle"}"#, startTimeout: 1)
        let began = ContinuousClock.now
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("module 'FixtureIsolatedGeo' is unavailable: it did not answer 'GeoRoute.savedCities()' within 1 s"),
            "\(result)")
        // Cut at its limit, not after the 10 s the trickle lasts (a bound, not a timing: the
        // trickle alone is 10 s).
        #expect(ContinuousClock.now - began < .seconds(9), "\(result)")
    }

    @Test func anErrorThrownInItsProcessCrossesWithItsMessage() throws {
        let host = try world(#"{"in": "call", "how": "fail"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities")
        #expect(result.status == 1)
        #expect(result.stderr == "modhost: error: fixturerouteuser cities: FixtureIsolatedGeo failed in call as told\n", "\(result)")
    }

    @Test(arguments: [("exit", "its process failed in start: its process closed the link"), ("fail", "did not start in its process")])
    func aFaultInStartFailsTheModuleAndSkipsItsUser(how: String, reason: String) throws {
        let host = try world(#"{"in": "start", "how": "\#(how)"}"#)
        let report = try host.json(Report.self, "--isolate", "FixtureIsolatedGeo", "modules", "--json")
        let geo = try #require(report.modules.first)
        #expect(geo.state == "failed")
        #expect(geo.reason?.contains(reason) == true, "\(String(describing: geo.reason))")
        #expect(report.modules.last?.state == "skipped")
    }

    @Test func aKillFromOutsideIsToldApartAndNotHeldAgainstTheModule() throws {
        let host = try world(#"{"in": "call", "how": "block", "announce": "pid"}"#)
        let announce = host.dataFolder + "/FixtureIsolatedGeo/pid"
        let running = try host.start(arguments: ["--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities"])
        let deadline = ContinuousClock.now + .seconds(60)
        while FileManager.default.contents(atPath: announce).flatMap({ Int32(String(decoding: $0, as: UTF8.self)) }) == nil {
            guard ContinuousClock.now < deadline else { Issue.record("the module never announced itself"); return }
            usleep(10_000)
        }
        let pid = try #require(FileManager.default.contents(atPath: announce).flatMap { Int32(String(decoding: $0, as: UTF8.self)) })
        kill(pid, SIGKILL)
        let result = try running.wait()
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("was ended from outside (signal 9, Killed); this does not count against it"), "\(result)")
        // Used again at once: nothing recorded against it.
        try host.write([
            .library(TestEnvironment.library("FixtureIsolatedGeo")), .library(TestEnvironment.library("FixtureRouteUser")),
        ])
        #expect(try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities").stdout == "1 cities: Porto (PT)\n")
    }

    @Test func aModuleWhoseProcessEndedStartsAgainOnItsNextUse() throws {
        let host = try world(#"{"in": "call", "how": "raise", "once": "crashed"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities", "3")
        #expect(result.signal == nil)
        #expect(
            result.outputLines == [
                "call 1: module 'FixtureIsolatedGeo' is unavailable: its process closed the link", "call 2: 1 cities: Porto (PT)",
                "call 3: 1 cities: Porto (PT)",
            ], "\(result)")
        #expect(result.errorLines.filter { $0.contains("starting its process again") }.count == 1, "\(result)")
        #expect(result.stderr.contains("crashed its own process in background (SIGSEGV)"), "\(result)")
    }

    @Test func aModuleThatKeepsFailingStaysOffAfterThreeRestartsInAMinute() throws {
        let host = try world(#"{"in": "call", "how": "exit"}"#)
        let result = try host.run("--isolate", "FixtureIsolatedGeo", "fixtureRouteUser", "cities", "6")
        #expect(result.errorLines.filter { $0.contains("starting its process again") }.count == 3, "\(result)")
        #expect(result.errorLines.filter { $0.contains("exited with status 3") }.count == 4, "\(result)")
        let off =
            "module 'FixtureIsolatedGeo' is unavailable: its process failed 4 times within a minute; it stays off for the rest of this run"
        #expect(result.outputLines.suffix(2) == ["call 5: \(off)", "call 6: \(off)"], "\(result)")
        #expect(result.stderr.contains("module 'FixtureIsolatedGeo' is skipped from the next start; 'modhost --retry FixtureIsolatedGeo'"))
        // Off at the next start too, until --retry.
        let next = try host.json(Report.self, "--isolate", "FixtureIsolatedGeo", "modules", "--json")
        #expect(next.modules.first?.state == "failed")
        #expect(next.modules.first?.reason?.contains("its own process failed 4 times within a minute on ") == true, "\(next.modules)")
        let retried = try host.json(Report.self, "--isolate", "FixtureIsolatedGeo", "--retry", "FixtureIsolatedGeo", "modules", "--json")
        #expect(retried.modules.first?.state == "active")
    }

    @Test func aModuleWhoseRouteCannotCrossIsNotIsolated() throws {
        let host = try TestHost(entries: [("FixtureMisbehaves", "")])
        let report = try host.json(Report.self, "--isolate", "FixtureMisbehaves", "modules", "--json")
        #expect(report.modules.first?.state == "failed")
        #expect(
            report.modules.first?.reason?.contains("cannot run in a process of its own: route 'MisbehaviourRoute' cannot cross") == true)
    }
}
