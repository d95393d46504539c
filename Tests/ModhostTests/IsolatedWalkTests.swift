import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The walk of every screen (NavigationWalkTests' cases) with Photos and Geo each in a process
/// of its own reads, line for line, as it does with every module in the host's process: each
/// screen reached, left by Back, by an empty answer and by `q`, with the same output and the
/// same end, and no route unavailable on the way.
@Suite struct IsolatedWalkTests {
    static let isolation = ["--isolate", "Photos", "--isolate", "Geo"]

    @Test(arguments: NavigationWalkTests.cases)
    func everyScreenReadsAsInOneProcess(_ screen: NavigationWalkTests.Case) throws {
        let app = try NavigationWalkTests.app(loggedIn: screen.loggedIn)
        for key in screen.isMenu ? ["0", "", "q"] : [""] {
            let input = (screen.path + [key]).map { $0 + "\n" }.joined()
            let alone = try app.run(arguments: [], input: input)
            let isolated = try app.run(arguments: Self.isolation, input: input)
            #expect(isolated.status == alone.status, "\(screen.name), '\(key)': \(isolated.stderr)")
            #expect(isolated.stdout == alone.stdout, "\(screen.name), '\(key)':\n\(isolated.stdout)\n---\n\(alone.stdout)")
            #expect(!isolated.stderr.contains("unavailable"), "\(screen.name), '\(key)': \(isolated.stderr)")
            #expect(alone.stdout.contains(screen.screen), "\(screen.name): the walk reaches its screen")
        }
    }

    /// The person's language reaches a module in a process of its own, and comes back from
    /// Settings in one: chosen before the start (stored) or on the Settings screen during the
    /// run, every screen reads as it does with every module in the host's process.
    @Test(arguments: [["--isolate", "Geo"], ["--isolate", "Geo", "--isolate", "Settings"]])
    func thePersonsLanguageCrossesToAndFromAModulesProcess(isolation: [String]) throws {
        // German stored before the start; then French chosen on the Settings screen (4, 3, 3).
        for (stored, input) in [("de", "3\n0\nq\n"), ("en", "4\n3\n3\n0\n3\n0\nq\n")] {
            let (alone, isolated) = (try NavigationWalkTests.app(loggedIn: true), try NavigationWalkTests.app(loggedIn: true))
            for app in [alone, isolated] {
                #expect(try app.run(arguments: ["settings", "set", "settings.language", stored], input: "").status == 0)
            }
            let inOne = try alone.run(arguments: [], input: input)
            let apart = try isolated.run(arguments: isolation, input: input)
            #expect(apart.stdout == inOne.stdout, "\(isolation), \(stored):\n\(apart.stdout)\n---\n\(inOne.stdout)")
            #expect(apart.stdout.contains(stored == "de" ? "Orte" : "Lieux"), "\(apart.stdout)")
            #expect(apart.stderr.isEmpty, "\(apart.stderr)")
        }
    }

    /// Logging out on Settings' screen in its own process leads to Welcome at once, as in one
    /// process: its screens end when the person changes, and the host's Welcome comes next.
    @Test(arguments: [["--isolate", "Settings"], ["--isolate", "Settings", "--isolate", "Auth"]])
    func loggingOutInAnIsolatedSettingsLeadsToWelcome(isolation: [String]) throws {
        let (alone, isolated) = (try NavigationWalkTests.app(loggedIn: true), try NavigationWalkTests.app(loggedIn: true))
        let input = "4\nl\n1\nq\n"
        let inOne = try alone.run(arguments: [], input: input)
        let apart = try isolated.run(arguments: isolation, input: input)
        #expect(apart.stdout == inOne.stdout, "\(isolation):\n\(apart.stdout)\n---\n\(inOne.stdout)")
        #expect(apart.stdout.contains("Welcome\n======="), "\(apart.stdout)")
        #expect(apart.stderr.isEmpty, "\(apart.stderr)")
    }

    /// A full screen of an isolated module, in a UTF-8 locale known by an alias (`C.UTF-8`):
    /// the kit's screen asks the C library for the person's character type, which reads the
    /// system's locale aliases, and no refusal is blamed on the module for the kit's own read.
    @Test func anIsolatedFullScreenInTheLocaleOfTheSystemBlamesTheModuleForNothing() throws {
        let host = try NavigationWalkTests.app(loggedIn: true)
        let app = try host.app(arguments: ["--isolate", "Geo"], fullScreen: true, environment: ["LANG": "C.UTF-8"])
        try app.waitFor("Places")
        app.type("3")
        try app.waitFor("Add a city")
        app.press(.escape)
        try app.waitFor("Photos")
        app.type("q")
        let ended = try app.waitForExit()
        #expect(ended.succeeded, "\(ended)")
        #expect(!app.output.contains("refused by its sandbox"), "\(app.output)")
    }

    /// A line the host says while a module's process has the full screen (its sandbox refused
    /// a folder the person chose for a download) does not write over that screen: it is told
    /// above the host's next screen, once the terminal is back.
    @Test func theHostsWordsDoNotWriteOverAModulesFullScreen() throws {
        let host = try NavigationWalkTests.app(loggedIn: true)
        // Long enough that the host's line about it wraps.
        let folder = try TestEnvironment.temporaryFolder() + "/a-folder-long-enough-to-wrap-the-line/not-declared"
        let app = try host.app(arguments: ["--isolate", "Photos"], rows: 30, columns: 110, fullScreen: true)
        try app.waitFor("Places")
        app.type("2")
        try app.waitFor("Search photos")
        app.type("1")
        try app.waitFor("What are you looking for?")
        app.type("mountain\r")
        try app.waitFor("alps")
        app.type("1")
        try app.waitFor("Download")
        app.type("1")
        try app.waitFor("Save in which folder")
        app.type(folder + "\r")
        try app.waitFor("Create the folder?")
        app.type("1")
        let failed = try app.waitFor("could not be saved")
        // The module's screen as it drew it: its breadcrumb on top, its footer at the bottom,
        // nothing of the host's in between.
        #expect(failed.lines.first?.contains("Home › Photos") == true, "\(failed)")
        #expect(failed.lines.last?.contains("? keys") == true, "\(failed)")
        #expect(!failed.contains("modhost: warn"), "\(failed)")
        app.press(.escape)
        app.press(.escape)
        app.press(.escape)
        app.press(.escape)
        // The line wraps where the folder's path puts it: read as one text.
        func words(_ screen: TerminalScreen) -> String { screen.lines.joined(separator: " ").split(separator: " ").joined(separator: " ") }
        let home = try app.waitUntil(describing: "Home, with the host's line above it") {
            $0.lines.first?.trimmingCharacters(in: .whitespaces) == "Home" && words($0).contains("refused by its sandbox (not declared)")
        }
        #expect(home.contains("module 'Photos' tried to make the folder"), "\(home)")
        app.type("q")
        #expect(try app.waitForExit().succeeded)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    /// What a module's process writes on a thread of its own while the app is full screen is
    /// held, not drawn over the screen, and shown above a next screen, visible: the terminal
    /// obeys none of it (no window title is set).
    @Test func aModulesProcessWritingWhileTheAppIsFullScreenIsShownAboveTheNextScreen() throws {
        let host = try TestHost(entries: [
            ("Settings", ""),
            (
                "FixtureIsolatedGeo",
                #""library": "\#(TestEnvironment.library("FixtureIsolatedGeo"))", "config": {"in": "start", "how": "later"}"#
            ),
        ])
        let app = try host.app(arguments: ["--isolate", "FixtureIsolatedGeo"], rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil { $0.isAlternate && $0.contains("Settings") }
        let folder = host.dataFolder + "/FixtureIsolatedGeo"
        #expect(FileManager.default.createFile(atPath: folder + "/go", contents: Data()))
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: folder + "/written"), Date() < deadline { usleep(20_000) }
        try app.waitForInput()
        #expect(!app.screen.contains("late:"), "held while the screen is up: \(app.screen)")
        // Shown above a next screen: the Settings screen, or Home again after it.
        var shown: TerminalScreen?
        for _ in 0..<20 where shown == nil {
            app.press(.enter)
            try app.waitForInput()
            if app.screen.contains("late:") { shown = app.screen }
            app.press(.escape)
            try app.waitForInput()
            if app.screen.contains("late:") { shown = app.screen }
        }
        let screen = try #require(shown, "never shown: \(app.screen)")
        #expect(screen.contains("late:?]0;taken?"), "\(screen)")
        #expect(!app.output.contains("\u{1B}]0;taken"), "no escape of the module's reached the terminal")
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// A setting of an isolated module changed on the Settings screen: its title, how its value
    /// reads and how a typed choice is read all come from the module's process (Geo reads
    /// "France" as FR and shows it as France; it refuses a country it does not know in the
    /// person's language), and the value is stored as in one process.
    @Test func anIsolatedModulesSettingIsChangedAsInOneProcess() throws {
        for (answer, shown) in [("31\nAtlantis", "Atlantis"), ("31\nfrance", "Default country: France"), ("21\n5", "Photos per page: 5")] {
            // Each way from the same start: a fresh data folder for each.
            let (alone, isolated) = (try NavigationWalkTests.app(loggedIn: true), try NavigationWalkTests.app(loggedIn: true))
            let input = "4\n" + answer + "\n0\nq\n"
            let inOne = try alone.run(arguments: [], input: input)
            let apart = try isolated.run(arguments: Self.isolation, input: input)
            #expect(apart.stdout == inOne.stdout, "\(answer):\n\(apart.stdout)\n---\n\(inOne.stdout)")
            #expect(apart.stdout.contains(shown), "\(answer): \(apart.stdout)")
            #expect(apart.stderr.isEmpty, "\(answer): \(apart.stderr)")
            // Stored by Settings, in the host's process: read back with no module isolated.
            let key = answer.hasPrefix("21") ? "photos.perPage" : "geo.defaultCountry"
            let stored = try isolated.run(arguments: ["settings", "get", key], input: "")
            #expect(stored.stdout == (try alone.run(arguments: ["settings", "get", key], input: "")).stdout, "\(stored)")
        }
    }
}
