import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Settings' Check (`c`): what `modhost check` says, shown in the app, as the command says it
/// to the same world (the same file, data folder and options), in the person's language.
@Suite struct CheckInTheAppTests {
    /// Photos' catalog is missing: the run starts (a start does not read the catalog), and
    /// check, from the app, names the problem, as `modhost check` does.
    static let flawed = [
        ("Photos", #""config": {"source": "catalog", "catalog": "/nonexistent/catalog.json"}"#), ("Geo", ""), ("Settings", ""),
    ]
    static let problem = "config.catalog '/nonexistent/catalog.json' does not exist"

    @Test func theAppShowsWhatCheckSays() throws {
        let host = try TestHost(entries: Self.flawed, language: "en")
        let command = try host.run("check")
        #expect(command.status == 1 && command.stderr.contains(Self.problem), "\(command)")
        // Home: 1 Photos, 2 Places, 3 Settings; Settings: c Check, 0 Back; q.
        let app = try host.run(arguments: [], input: "3\nc\n0\nq\n")
        #expect(app.succeeded, "\(app)")
        #expect(app.stdout.contains("a About · c Check · h Help · 0 Back · q Quit\n"), "\(app.stdout)")
        #expect(app.stdout.contains("Check\n=====\nWhat 'modhost check' says of this run's modules.json and modules, now:\n"))
        let shown = app.stdout.components(separatedBy: "\n").filter { $0.contains(Self.problem) }
        #expect(shown.count == 1, "\(app.stdout)")
        // The app's lines are check's own, without the "modhost: error: " each begins with.
        #expect(shown.first?.hasPrefix("  '") == true && shown.first?.contains("modhost: error:") == false, "\(shown)")
        #expect(host.crashRecords.isEmpty, "check from the app writes no crash record")
    }

    @Test func aSoundRunIsSaidToBeReadyInThePersonsLanguage() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")], language: "fr")
        let app = try host.run(arguments: [], input: "2\nc\n0\nq\n")
        #expect(app.succeeded, "\(app)")
        #expect(app.stdout.contains("Ce que 'modhost check' dit maintenant du modules.json et des modules de cette session :"))
        // check's own French: "'…/modules.json' est valide : 2 modules prêts, 0 désactivés".
        let verdict = app.stdout.components(separatedBy: "\n").first { $0.contains("modules.json") && $0.contains("valide") }
        #expect(verdict?.contains("2 modules") == true, "\(app.stdout)")
    }

    /// Full screen: check's lines, and the keys to leave them, on the alternate screen.
    @Test func fullScreenShowsItToo() throws {
        let host = try TestHost(entries: Self.flawed, language: "en")
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 100, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.contains("Places") }
        app.type("3")
        try app.waitUntil(describing: "Settings") { $0.lines.first?.contains("Home › Settings") == true }
        // A q typed while the check runs was typed at a screen that did not answer: dropped.
        app.type("cq")
        // However the path wraps at this width, the problem is on the screen whole.
        let screen = try app.waitUntil(describing: "the problem") { FullScreenWalkTests.shows($0, Self.problem) }
        #expect(!screen.contains("modhost: error:"), "\(screen.transcript)")
        try app.waitForInput()
        let title = app.screen.lines.first?.trimmingCharacters(in: .whitespaces)
        #expect(app.screen.isAlternate && title == "Home › Settings", "the q was dropped: \(app.screen)")
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// Ctrl-C while Check waits for a module's resource check that never returns: the app
    /// ends as Ctrl-C ends it, the terminal given back, and the check is ended with the probe
    /// it started (which would otherwise run on until its own limit, a minute here).
    @Test func ctrlCDuringCheckEndsItWithItsProbes() throws {
        // The check's temporary folders go where TMPDIR says, to be looked for after.
        let temporary = try TestEnvironment.temporaryFolder()
        let host = try TestHost(
            entries: [
                ("Settings", ""),
                ("FixtureMisbehaves", #""startTimeout": 60, "config": {"in": "checkResources", "how": "block"}"#),
            ], language: "en", environment: ["TMPDIR": temporary])
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 100, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.contains("Settings") }
        app.type("1")
        try app.waitUntil(describing: "Settings") { $0.lines.first?.contains("Home › Settings") == true }
        app.type("c")
        try app.waitFor("Checking…")
        try Self.waitForProbe(of: host)
        app.press(.control("c"))
        let ended = try app.waitForExit()
        #expect(ended.status == 128 + SIGINT, "\(ended)")
        #expect(!app.screen.isAlternate && !app.screen.reportsMouse)
        // Killed, they go a moment later; left running, the probe would stay a minute.
        let gone = ContinuousClock.now + .seconds(10)
        while !Self.processes(in: host).isEmpty, ContinuousClock.now < gone { usleep(10_000) }
        #expect(Self.processes(in: host).isEmpty, "no check or probe left running")
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("modhost-probe-data-") }
        #expect(left.isEmpty, "the probe's data folder is removed: \(left)")
    }

    /// The command lines of the processes running in `host`'s folder (a world's host and what
    /// it starts), other than this test's.
    static func processes(in host: TestHost) -> [String] {
        let folder = URL(fileURLWithPath: host.folder).resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int32($0) != nil && Int32($0) != getpid() }.compactMap { pid in
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"), cwd == folder,
                let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty
            else { return nil }
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
    }

    /// Waits until check's probe child runs (it blocks in the module's resource check).
    static func waitForProbe(of host: TestHost) throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !processes(in: host).contains(where: { $0.contains("__probe") }) {
            guard ContinuousClock.now < deadline else { throw HostTestingError.timedOut(command: ["__probe"], seconds: 60, output: "") }
            usleep(10_000)
        }
    }

    /// A run with `--no-crash-records` loads a module that crashed before, and so does the
    /// check it runs: Check sees the modules as the run does.
    @Test func itSeesTheModulesAsTheRunDoes() throws {
        let host = try TestHost(
            entries: [("Geo", ""), ("Settings", ""), ("FixtureMisbehaves", #""config": {"in": "command", "how": "raise"}"#)], language: "en"
        )
        #expect(try host.run("fixturemisbehaves", "run").signal == SIGSEGV)
        #expect(try host.module("FixtureMisbehaves")?.state == "failed", "skipped from the next start")
        let app = try host.run(arguments: ["--no-crash-records"], input: "2\nc\n0\nq\n")
        #expect(app.succeeded, "\(app)")
        let verdict = app.stdout.components(separatedBy: "\n").first { $0.contains("is valid") }
        #expect(verdict?.contains("3 modules ready") == true, "\(app.stdout)")
    }

    /// The language chosen in Settings, not only the environment's: the check a child runs
    /// never starts Settings, so the app tells it.
    @Test func itSpeaksTheLanguageChosenInSettings() throws {
        let host = try TestHost(entries: Self.flawed, language: "en")
        #expect(try host.run("settings", "set", "settings.language", "fr").succeeded)
        let app = try host.run(arguments: [], input: "3\nc\n0\nq\n")
        #expect(app.succeeded, "\(app)")
        // The host's French (its spacing before a colon), and Photos' own.
        let shown = app.stdout.components(separatedBy: "\n").filter { $0.contains("config.catalog") }
        #expect(shown.count == 1 && shown.first?.contains("modules.json' : modules[0]") == true, "\(app.stdout)")
        #expect(shown.first?.hasSuffix("config.catalog '/nonexistent/catalog.json' n’existe pas") == true, "\(shown)")
        #expect(
            shown.first?.hasPrefix("  '") == true && shown.first?.contains("erreur") == false, "no 'modhost : erreur :' before it: \(shown)"
        )
    }
}
