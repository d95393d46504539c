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
