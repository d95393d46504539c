import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The app full screen on a real pseudo-terminal, read through the screen model: redrawn in
/// place on the alternate screen, driven by keys, relaid on resize, and the terminal given
/// back as it was on every way out.
@Suite struct FullScreenAppTests {
    /// Photos, Places and Settings, without Auth: the app opens on Home (1 Photos, 2 Places,
    /// 3 Settings).
    func world() throws -> TestHost {
        try TestHost(entries: [("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
    }

    /// The title bar (the breadcrumb) and the footer of the screen shown.
    func bars(_ screen: TerminalScreen) -> (title: String, footer: String) {
        (screen.lines.first?.trimmingCharacters(in: .whitespaces) ?? "", screen.lines.last?.trimmingCharacters(in: .whitespaces) ?? "")
    }

    @Test(arguments: [(24, 80), (20, 50)])
    func everyScreenIsReachedByArrowsAndByDigits(rows: Int, columns: Int) throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: rows, columns: columns, fullScreen: true)
        var screen = try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        #expect(screen.isAlternate, "full screen, on the alternate screen")
        #expect(screen.lines.count == rows && screen.lines.allSatisfy { $0.count <= columns })
        #expect(screen.highlightedLines.contains { $0.contains("1. Photos") }, "the first item is selected: \(screen)")
        #expect(bars(screen).footer.contains("q Quit"))
        // Arrows: down to Places, Enter opens it, Esc goes back.
        app.press(.down)
        screen = try app.waitUntil(describing: "Places selected") { $0.highlightedLines.contains { $0.contains("2. Places") } }
        app.press(.enter)
        screen = try app.waitUntil(describing: "Home › Places") { bars($0).title == "Home › Places" }
        #expect(screen.contains("Add a city"))
        app.press(.escape)
        try app.waitUntil(describing: "back Home") { bars($0).title == "Home" }
        // j/k move too; End and Home jump.
        app.type("j")
        try app.waitUntil(describing: "j moves") { $0.highlightedLines.contains { $0.contains("2. Places") } }
        app.press(.end)
        try app.waitUntil(describing: "End") { $0.highlightedLines.contains { $0.contains("3. Settings") } }
        app.press(.home)
        try app.waitUntil(describing: "Home key") { $0.highlightedLines.contains { $0.contains("1. Photos") } }
        // A digit chooses at once, as a stable shortcut.
        app.type("3")
        screen = try app.waitUntil(describing: "Home › Settings") { bars($0).title == "Home › Settings" }
        #expect(bars(screen).footer.contains("h Help"), "a menu's letters are in the footer: \(bars(screen).footer)")
        // A letter acts without Enter: Help opens in the pager, q closes it.
        app.type("h")
        screen = try app.waitUntil(describing: "the pager") { bars($0).footer.contains("/ search") }
        #expect(bars(screen).title == "Home › Settings › Help", "the paged text under its own title")
        #expect(screen.contains("Commands of the active modules"))
        app.type("q")
        try app.waitUntil(describing: "Settings again") { $0.contains("Language: English") && !bars($0).footer.contains("/ search") }
        // Backspace goes back; q quits and the terminal is the shell's again.
        app.press(.backspace)
        try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        app.type("q")
        let ended = try app.waitForExit()
        #expect(ended.succeeded, "\(ended)")
        #expect(!app.screen.isAlternate, "off the alternate screen")
        #expect(app.screen.contains("Goodbye."))
    }

    /// The number of the menu item that reads `label` on `screen`.
    func number(of label: String, on screen: TerminalScreen) -> String? {
        for line in screen.lines {
            guard let found = line.range(of: ". " + label) else { continue }
            let digits = line[..<found.lowerBound].reversed().prefix { $0.isNumber }
            if !digits.isEmpty { return String(digits.reversed()) }
        }
        return nil
    }

    /// A language chosen on the Settings screen is the breadcrumb's at once, the steps above
    /// the screen included, with Settings in the host's process and in one of its own (where
    /// the steps above are the host's, sent with the terminal it lends).
    @Test(arguments: [[], ["--isolate", "Settings"]])
    func theBreadcrumbTakesALanguageChosenOnTheSettingsScreen(isolation: [String]) throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(arguments: isolation, fullScreen: true)
        try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        app.type("3")
        var screen = try app.waitUntil(describing: "Settings") { bars($0).title == "Home › Settings" && $0.contains("Language:") }
        app.type(try #require(number(of: "Language:", on: screen), "\(screen)"))
        screen = try app.waitUntil(describing: "the languages") { $0.contains("Deutsch") }
        app.type(try #require(number(of: "Deutsch", on: screen), "\(screen)"))
        try app.waitUntil(describing: "Settings in German, under Home in German") { bars($0).title == "Start › Einstellungen" }
        app.type("q")
        let ended = try app.waitForExit()
        #expect(ended.succeeded, "\(ended)")
    }

    /// Text pasted into a field (the terminal marks it, once the app asks) is the field's text:
    /// its line break submits nothing, its escape goes back nowhere and is shown, not obeyed.
    @Test func pastedTextIsTypedIntoTheFieldAndNothingElse() throws {
        let host = try TestHost(entries: [("Auth", ""), ("Settings", "")])
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(fullScreen: true)
        try app.waitUntil(describing: "Welcome") { bars($0).title == "Welcome" }
        #expect(app.output.contains("\u{1B}[?2004h"), "the app asks the terminal to mark what is pasted")
        app.type("2")
        try app.waitFor("Email")
        app.type("\u{1B}[200~ann@example.com\u{1B}]2;owned\u{07}\nq\u{1B}[201~")
        let typed = try app.waitFor("ann@example.com?]2;owned? q")
        #expect(bars(typed).title == "Welcome › Register", "still on the field: \(typed)")
        #expect(!typed.contains("Display name"), "the pasted line break submitted nothing")
        app.press(.escape)
        try app.waitUntil(describing: "Welcome") { bars($0).title == "Welcome" }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
        #expect(app.output.contains("\u{1B}[?2004l"), "and to stop as it leaves")
    }

    @Test func aResizeMidScreenRedrawsAtTheNewSize() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        app.type("3")
        try app.waitUntil(describing: "Settings") { bars($0).title == "Home › Settings" }
        app.resize(rows: 20, columns: 50)
        // At 50 columns the footer keeps every key of the screen; the moves everyone knows go.
        let screen = try app.waitUntil(describing: "the footer on row 20") { screen in
            screen.lines.count == 20 && screen.lines[19].contains("c Check · h Help · 0/Esc Back · q Quit")
                && screen.lines[0].contains("Home › Settings")
        }
        #expect(screen.lines.allSatisfy { $0.count <= 50 })
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// A line typed in a question is edited in place: the arrows, Backspace, Ctrl-U.
    @Test func aQuestionIsEditedInPlace() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        app.type("2")
        try app.waitUntil(describing: "Places") { bars($0).title == "Home › Places" }
        app.press(.enter)
        try app.waitFor("Which country?")
        // "Itxy", back before the y, the x rubbed out, "al" put in: "Italy".
        app.type("Itxy")
        app.press(.left)
        app.press(.backspace)
        app.type("al")
        try app.waitUntil(describing: "Italy typed") { $0.lines.contains { $0.contains("Italy") } }
        app.press(.control("u"))
        try app.waitUntil(describing: "the line emptied") { !$0.lines.contains { $0.contains("Italy") } }
        app.press(.escape)
        try app.waitUntil(describing: "back to Places") { $0.contains("Add a city") }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// The country question filters the countries as the person types, in the current
    /// language, by a name in another shipped language and ignoring accents; Settings' default
    /// country comes first.
    @Test func theCountryQuestionFiltersAsThePersonTypes() throws {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")], language: "fr")
        defer { withExtendedLifetime(host) {} }
        #expect(try host.run("settings", "set", "geo.defaultCountry", "IT").succeeded)
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitFor("Accueil")
        app.type("1")
        try app.waitFor("Ajouter une ville")
        app.press(.enter)
        var screen = try app.waitFor("Quel pays ?")
        // The default country is listed first, and nothing is selected on an empty line, so
        // Enter there is the empty answer "(laisser vide pour annuler)" promises. The title bar
        // is in reverse video too; a selection is the next highlighted row.
        let question = screen.lines.firstIndex { $0.contains("Quel pays ?") } ?? 0
        #expect(screen.lines.dropFirst(question + 1).first?.contains("Italie (IT)") == true, "the default country first: \(screen)")
        #expect(screen.highlightedLines.count == 1, "nothing selected yet: \(screen.highlightedLines)")
        app.press(.down)
        try app.waitUntil(describing: "Italie selected") { $0.highlightedLines.dropFirst().first?.contains("Italie (IT)") == true }
        app.press(.up)
        try app.waitUntil(describing: "back on the line") { $0.highlightedLines.count == 1 }
        app.press(.enter)
        try app.waitFor("Rien n’a été ajouté.")
        app.press(.enter)
        screen = try app.waitFor("Quel pays ?")
        app.type("germany")
        screen = try app.waitUntil(describing: "Allemagne alone") { $0.contains("Allemagne (DE)") && !$0.contains("Italie (IT)") }
        app.press(.control("u"))
        // A part of a name finds it first, but Enter would answer the line as typed (as the
        // line mode does): it is chosen by moving to it.
        app.type("osterr")
        screen = try app.waitUntil(describing: "Autriche first") { screen in
            let question = screen.lines.firstIndex { $0.contains("Quel pays ?") } ?? 0
            return screen.lines.dropFirst(question + 1).first?.contains("Autriche (AT)") == true && screen.highlightedLines.count == 1
        }
        app.press(.down)
        screen = try app.waitUntil(describing: "Autriche") { $0.highlightedLines.dropFirst().first?.contains("Autriche (AT)") == true }
        app.press(.enter)
        try app.waitFor("Quelle ville ?")
        app.type("Wien")
        app.press(.enter)
        screen = try app.waitUntil(describing: "saved") { $0.contains("Wien") && $0.contains("Autriche") && !$0.contains("Quelle ville ?") }
        app.type("q")
        _ = try app.waitForExit()
        #expect(try host.run("geo", "list").stdout.contains("Wien"))
    }

    /// The mouse: a click selects an item and a second click on it opens it (a suggestion too),
    /// the wheel moves the selection; leaving gives clicks back to the terminal.
    @Test func theMouseChoosesAndScrolls() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        let screen = try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        #expect(screen.reportsMouse)
        app.wheel(.down)
        try app.waitUntil(describing: "the wheel moves") { $0.highlightedLines.contains { $0.contains("2. Places") } }
        app.wheel(.up)
        try app.waitUntil(describing: "and back") { $0.highlightedLines.contains { $0.contains("1. Photos") } }
        try app.waitForInput()
        try app.click(on: "Places")
        try app.waitUntil(describing: "Places selected by a click") { $0.highlightedLines.contains { $0.contains("2. Places") } }
        try app.waitForInput()
        #expect(bars(app.screen).title == "Home", "one click on an item that is not selected only selects it")
        try app.click(on: "Places")
        try app.waitUntil(describing: "Places opened by a second click") { bars($0).title == "Home › Places" }
        try app.waitForInput()
        // Selected already, it still takes two clicks: a double click's second press never
        // reaches the next screen.
        try app.click(on: "Add a city")
        try app.waitForInput()
        #expect(bars(app.screen).title == "Home › Places", "one click on the selected item does not open it")
        try app.click(on: "Add a city")
        try app.waitFor("Which country?")
        app.type("ital")
        // Clicks go where the screen shows the text once the app has drawn all it was sent.
        try app.waitUntil(describing: "Italy listed") { $0.contains("Which country? ital") && $0.contains("Italy (IT)") }
        try app.waitForInput()
        try app.click(on: "Italy (IT)")
        try app.waitForInput()
        #expect(app.screen.contains("Which country?"))
        try app.click(on: "Italy (IT)")
        try app.waitFor("Add a city in Italy")
        app.press(.escape)
        try app.waitUntil(describing: "back to Places") { bars($0).title == "Home › Places" }
        // A click on no item (the title bar, an empty row) does nothing.
        try app.waitForInput()
        let before = app.screen
        app.click(row: 0, column: 3)
        app.click(row: 20, column: 3)
        try app.waitForInput()
        #expect(app.screen.lines == before.lines && app.screen.highlightedLines == before.highlightedLines)
        app.type("q")
        let ended = try app.waitForExit()
        #expect(ended.succeeded, "\(ended)")
        #expect(!app.screen.reportsMouse && !app.screen.isAlternate)
    }

    /// The wheel scrolls the pager three lines a notch.
    @Test func theWheelScrollsThePager() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 12, columns: 60, fullScreen: true)
        try app.waitUntil(describing: "Home") { bars($0).title == "Home" }
        app.type("3")
        try app.waitUntil(describing: "Settings") { bars($0).title == "Home › Settings" }
        app.type("h")
        try app.waitUntil(describing: "Help in the pager, from its first line") { bars($0).footer.contains("1–9 /") }
        app.wheel(.down, row: 5, column: 10)
        try app.waitUntil(describing: "three lines on") { bars($0).footer.contains("4–12 /") }
        app.wheel(.up, row: 5, column: 10)
        try app.waitUntil(describing: "and back") { bars($0).footer.contains("1–9 /") }
        app.type("q")
        try app.waitUntil(describing: "Settings again") { !bars($0).footer.contains("/ search") }
        app.type("q")
        #expect(try app.waitForExit().succeeded)
    }

    /// `--plain`, `MODHOST_UI=plain`, `TERM=dumb` and `LC_ALL=C` keep the line mode on a
    /// terminal.
    @Test func plainKeepsTheLineModeOnATerminal() throws {
        let host = try world()
        let apps = [
            try host.app("--plain", fullScreen: true), try host.app(fullScreen: true, environment: ["MODHOST_UI": "plain"]),
            try host.app(fullScreen: true, environment: ["TERM": "dumb"]), try host.app(fullScreen: true, environment: ["LC_ALL": "C"]),
        ]
        for app in apps {
            try app.waitFor("Which one?")
            #expect(!app.screen.isAlternate)
            try app.answer("q")
            #expect(try app.waitForExit().succeeded)
        }
    }

    /// Ctrl-C, a module that crashes while its screen shows, and Ctrl-C while a module's screen
    /// never returns (only the guard's watchdog can end the host then, a second after the
    /// signal) give the terminal back as it was: off the alternate screen, echo and line
    /// editing on (`stty -a` after).
    @Test(arguments: ["ctrl-c", "crash", "watchdog"])
    func theTerminalIsRestoredOnEveryWayOut(way: String) throws {
        let data = try TestEnvironment.temporaryFolder()
        let blocking = try TestEnvironment.temporaryFolder() + "/blocking"
        let misbehaviour = [
            "crash": #""config": {"in": "screen", "how": "fatalError"}"#,
            "watchdog": #""config": {"in": "screen", "how": "block", "announce": "\#(blocking)"}"#,
        ]
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureMisbehaves", misbehaviour[way] ?? "")]))
        let command = """
            trap : INT
            \(TestEnvironment.modhost) --config \(config) --data-dir \(data)
            echo "status=$?"
            stty -a </dev/tty | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon
            """
        let terminal = try TerminalProcess.start(command, environment: ["MODHOST_UI": "", "LANG": "en_US.UTF-8"])
        try terminal.waitUntil(describing: "Home, full screen") { $0.isAlternate && $0.contains("Misbehave") }
        switch way {
        case "crash": terminal.type("1")
        case "watchdog":
            terminal.type("1")
            try terminal.waitUntil(describing: "the module's screen blocking") { _ in FileManager.default.fileExists(atPath: blocking) }
            terminal.press(.control("c"))
        default: terminal.press(.control("c"))
        }
        _ = try terminal.waitForExit(timeout: .seconds(60))
        let lines = terminal.screen.transcript.split(separator: "\n").map(String.init)
        #expect(!terminal.screen.isAlternate)
        #expect(!terminal.screen.reportsMouse, "a click selects text again")
        // fatalError traps: SIGILL on x86-64, SIGTRAP on arm64; a stop by Ctrl-C is 128 + SIGINT.
        let statuses = way == "crash" ? [128 + SIGILL, 128 + SIGTRAP] : [128 + SIGINT]
        #expect(statuses.contains { lines.contains("status=\($0)") }, "\(lines)")
        #expect(lines.suffix(2) == ["icanon", "echo"], "the terminal as it was: \(terminal.screen.transcript)")
        if way == "watchdog" {
            // The person's Ctrl-C ended it, not the module: nothing is blamed or skipped.
            #expect(!terminal.screen.transcript.contains("FixtureMisbehaves"), "\(terminal.screen.transcript)")
        }
        if way == "crash" {
            #expect(
                terminal.screen.transcript.contains("module 'FixtureMisbehaves' crashed the host in screen"),
                "\(terminal.screen.transcript)")
        }
    }
}
