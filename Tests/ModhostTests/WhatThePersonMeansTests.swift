import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The full-screen app does what the person means, on a real pseudo-terminal read through the
/// screen model: an exact answer wins over a fuzzy one, every line of a long screen can be
/// reached, a cancel says so where feedback goes and traps no key, the cursor stands where the
/// next character goes, and a destructive question opens on Cancel.
@Suite struct WhatThePersonMeansTests {
    func world(cities: [(String, String)] = []) throws -> TestHost {
        let host = try TestHost(entries: [("Geo", ""), ("Settings", "")], language: "en")
        for (country, city) in cities {
            let added = try host.run("geo", "add", "--country", country, "--city", city)
            #expect(added.succeeded, "\(added)")
        }
        return host
    }

    /// Home (1 Places) → Places, full screen.
    func places(_ host: TestHost, rows: Int, columns: Int) throws -> TerminalSession {
        let app = try host.app(rows: rows, columns: columns, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.lines.first?.contains("Home") == true }
        try app.waitForInput()
        app.type("1")
        try app.waitUntil(describing: "Places") { $0.lines.first?.contains("Home › Places") == true }
        try app.waitForInput()
        return app
    }

    struct SavedCities: Decodable {
        struct City: Decodable {
            let country: String
            let city: String
        }
        let cities: [City]
    }

    /// Every ISO code the country question offers, typed and then Enter, saves a city in that
    /// very country (typing `ES` once saved it in Estonia, `DE` in Denmark, `CH` in Chad).
    @Test func everyCountryCodeTypedThenEnterSavesThatCountry() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let codes = Locale.Region.isoRegions.map(\.identifier).filter {
            $0.count == 2 && $0.allSatisfy(\.isLetter) && !["EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"].contains($0)
        }
        #expect(codes.count > 240, "\(codes.count)")
        let app = try places(host, rows: 30, columns: 100)
        for code in codes {
            app.type("1")
            try app.waitFor("Which country?")
            try app.waitForInput()
            app.type(code)
            try app.waitUntil(describing: "'\(code)' typed") { $0.lines.contains { $0.contains("Which country? " + code) } }
            try app.waitForInput()
            app.press(.enter)
            try app.waitFor("Which city?")
            try app.waitForInput()
            app.type("Town" + code)
            try app.waitUntil(describing: "the city typed") { $0.lines.contains { $0.contains("Which city? Town" + code) } }
            try app.waitForInput()
            app.press(.enter)
            try app.waitUntil(describing: "saved \(code)") {
                $0.contains("Saved Town" + code) && $0.lines.first?.contains("Home › Places") == true
            }
            try app.waitForInput()
        }
        app.type("q")
        _ = try app.waitForExit()
        let saved = try host.run("geo", "list", "--json").decode(SavedCities.self).cities
        let wrong = saved.filter { "Town" + $0.country != $0.city }
        #expect(saved.count == codes.count && wrong.isEmpty, "saved elsewhere: \(wrong.map { "\($0.city) in \($0.country)" })")
    }

    static let thirty: [(String, String)] = (1...30).map { index in
        (["DE", "FR", "CN", "IT", "ES"][index % 5], "City\(String(format: "%02d", index))")
    }

    /// With 30 cities the Places screen is taller than the terminal: ↑ at the first item
    /// scrolls the text above into view line by line, and a mark says there is more above or
    /// below; every city and every country heading is seen.
    @Test(arguments: [(24, 80), (20, 50)])
    func everyLineOfALongScreenIsReachable(rows: Int, columns: Int) throws {
        let host = try world(cities: Self.thirty)
        defer { withExtendedLifetime(host) {} }
        let app = try places(host, rows: rows, columns: columns)
        var screen = app.screen
        #expect(screen.highlightedLines.contains { $0.contains("1. Add a city") }, "the first item is selected: \(screen)")
        #expect(screen.lines[1].hasSuffix("↑"), "more above, and it says so: \(screen)")
        var seen = Set(screen.lines)
        for _ in 0..<80 where !screen.lines[1].contains("China") {
            let before = screen.lines
            app.press(.up)
            screen = try app.waitUntil(describing: "scrolled up") { $0.lines != before }
            try app.waitForInput()
            seen.formUnion(screen.lines)
        }
        #expect(screen.lines[1].contains("China mainland (CN)"), "the top is reached: \(screen)")
        #expect(!screen.lines[1].hasSuffix("↑") && screen.lines[rows - 3].hasSuffix("↓"), "nothing above, more below: \(screen)")
        for (_, city) in Self.thirty { #expect(seen.contains { $0.contains("· " + city) }, "\(city) was never shown") }
        for heading in ["China mainland (CN)", "France (FR)", "Germany (DE)", "Italy (IT)", "Spain (ES)"] {
            #expect(seen.contains { $0.contains(heading) }, "\(heading) was never shown")
        }
        // Down again brings the selection back into view; Home shows the top at once.
        app.press(.down)
        screen = try app.waitUntil(describing: "the selection shown") { $0.highlightedLines.contains { $0.contains("2. Rename a city") } }
        try app.waitForInput()
        app.press(.home)
        screen = try app.waitUntil(describing: "the top") { $0.lines[1].contains("China mainland (CN)") }
        app.type("q")
        _ = try app.waitForExit()
    }

    /// Esc at the country question of a long Places screen: "Nothing was added." on the status
    /// line, no pager, and the next key is Places' own.
    @Test func aCancelSaysSoOnTheStatusLineAndTrapsNoKey() throws {
        let host = try world(cities: Self.thirty)
        defer { withExtendedLifetime(host) {} }
        let rows = 24
        let app = try places(host, rows: rows, columns: 80)
        app.type("1")
        try app.waitFor("Which country?")
        try app.waitForInput()
        app.press(.escape)
        let screen = try app.waitUntil(describing: "Places again") {
            $0.lines.first?.trimmingCharacters(in: .whitespaces) == "Home › Places"
        }
        try app.waitForInput()
        #expect(screen.lines[rows - 2].contains("Nothing was added."), "on the status line: \(screen)")
        #expect(!screen.lines[rows - 1].contains("/ search"), "not in the pager: \(screen)")
        #expect(screen.lines.filter { $0.contains("Nothing was added.") }.count == 1)
        // The next key is Places': 2 opens Rename.
        app.type("2")
        try app.waitUntil(describing: "Rename's question") { $0.lines.first?.contains("Which city?") == true }
        app.type("q")
        _ = try app.waitForExit()
    }

    /// At 50 columns a 36-character city name wraps; the cursor follows its end, and Home puts
    /// it on its first character (once: column 2, and Home at the prompt's end).
    @Test(arguments: [50, 100])
    func theCursorIsWhereTheNextCharacterGoes(columns: Int) throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try places(host, rows: 24, columns: columns)
        app.type("1")
        try app.waitFor("Which country?")
        try app.waitForInput()
        app.type("ES")
        try app.waitForInput()
        app.press(.enter)
        try app.waitFor("Which city?")
        try app.waitForInput()
        let name = "Llanfairpwllgwyngyllgogerychwyrndrob"
        app.type(name)
        var screen = try app.waitUntil(describing: "the name typed") { $0.text.replacingOccurrences(of: "\n ", with: "").contains(name) }
        try app.waitForInput()
        screen = app.screen
        let (start, end) = try #require(Self.answer(name, after: "Which city? ", on: screen), "\(screen)")
        #expect(screen.cursor == end, "right after the name's end: \(screen.cursor) \(screen)")
        app.press(.home)
        screen = try app.waitUntil(describing: "the cursor moved") { $0.cursor != end }
        #expect(screen.cursor == start, "on the answer's first character: \(screen.cursor)")
        app.press(.escape)
        app.type("q")
        _ = try app.waitForExit()
    }

    /// `?` on Welcome, Home, a question and the pager shows that screen's keys in the pager;
    /// the footer offers it; q closes it and the screen is as it was.
    @Test func questionMarkShowsTheKeysOfEveryScreen() throws {
        let host = try TestHost(entries: [("Auth", ""), ("Geo", ""), ("Settings", "")], language: "en")
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 30, columns: 120, fullScreen: true)
        var screen = try app.waitUntil(describing: "Welcome") { $0.isAlternate && $0.lines.first?.contains("Welcome") == true }
        try app.waitForInput()
        #expect(screen.lines.last?.contains("? keys") == true, "\(screen.lines.last ?? "")")
        app.type("?")
        screen = try app.waitFor("Keys on this screen")
        #expect(screen.contains("open the selection") && screen.contains("q   Quit") && screen.contains("a number"), "\(screen)")
        app.type("q")
        try app.waitUntil(describing: "Welcome again") { $0.contains("Register") && !$0.contains("Keys on this screen") }
        try app.waitForInput()
        // A question: `?` on the empty line is the keys; typed after something it is a character.
        app.type("1")
        try app.waitFor("Email")
        try app.waitForInput()
        app.type("?")
        screen = try app.waitFor("Keys on this screen")
        #expect(screen.contains("move in the line") && !screen.contains("choose a suggestion"), "\(screen)")
        app.type("q")
        try app.waitUntil(describing: "the question again") { $0.contains("Email") && !$0.contains("Keys on this screen") }
        try app.waitForInput()
        app.type("a?")
        try app.waitUntil(describing: "a? typed") { $0.lines.contains { $0.contains("a?") } }
        app.press(.escape)
        try app.waitUntil(describing: "Welcome") { $0.contains("Register") && !$0.contains("Email") }
        app.type("q")
        _ = try app.waitForExit()
    }

    /// The 27-city "Which city?" list of Rename is longer than the screen: typed letters filter
    /// it fzf-style, Enter opens the best found, Esc shows all again.
    @Test func aLongMenuIsFilteredByTyping() throws {
        let towns = ["Sevilla", "Salamanca", "Lyon", "Lille", "Berlin", "Bonn", "Napoli", "Nantes", "Graz"]
        let cities = (0..<27).map { index in (["ES", "FR", "DE", "IT", "AT"][index % 5], towns[index % towns.count] + "\(index)") }
        let host = try world(cities: cities)
        defer { withExtendedLifetime(host) {} }
        let app = try places(host, rows: 24, columns: 80)
        app.type("2")
        var screen = try app.waitUntil(describing: "Which city?") { $0.lines.first?.contains("Which city?") == true }
        try app.waitForInput()
        app.type("gra")
        screen = try app.waitUntil(describing: "filtered") { screen in
            screen.lines.last?.contains("/gra") == true && !screen.contains("Sevilla0")
        }
        let shown = screen.lines.filter { $0.contains("Graz") }
        #expect(shown.count == 3 && screen.highlightedLines.dropFirst().first?.contains("Graz") == true, "\(screen)")
        app.press(.escape)
        screen = try app.waitUntil(describing: "all again") { screen in
            screen.lines.last?.contains("0/Esc Back") == true && screen.lines.filter { $0.contains(", ") }.count > 10
        }
        try app.waitForInput()
        app.type("/")
        app.type("lyon11")
        screen = try app.waitUntil(describing: "Lyon11 alone") { $0.lines.filter { $0.contains("Lyon") }.count == 1 }
        try app.waitForInput()
        app.press(.enter)
        screen = try app.waitFor("Lyon11")
        #expect(screen.lines.contains { $0.contains("New name") || $0.contains("Lyon11") }, "\(screen)")
        app.press(.escape)
        app.type("q")
        _ = try app.waitForExit()
    }

    /// The breadcrumb is the whole path (Places' own question is a step after Places), Rename
    /// offers the current name to edit, and at 50 columns every key in the footer keeps its word.
    @Test func breadcrumbsRenameAndTheNarrowFooter() throws {
        let host = try world(cities: [("ES", "Sevilla")])
        defer { withExtendedLifetime(host) {} }
        let app = try places(host, rows: 20, columns: 50)
        var screen = app.screen
        #expect(
            screen.lines.last?.contains("Esc Back") == true && screen.lines.last?.contains("q Quit") == true, "\(screen.lines.last ?? "")")
        app.type("2")
        screen = try app.waitUntil(describing: "the city list") { $0.lines.first?.contains("Which city?") == true }
        #expect(screen.lines.first?.trimmingCharacters(in: .whitespaces) == "Home › Places › Which city?", "\(screen.lines.first ?? "")")
        try app.waitForInput()
        app.press(.enter)
        screen = try app.waitUntil(describing: "the new name asked") { $0.contains("new name?") }
        try app.waitForInput()
        #expect(screen.lines.contains { $0.contains("new name?") && $0.hasSuffix("Sevilla") }, "the current name offered: \(screen)")
        // Edited in place: the end rubbed out and typed anew.
        for _ in 0..<2 { app.press(.backspace) }
        app.type("la la Nueva")
        try app.waitUntil(describing: "edited") { $0.lines.contains { $0.hasSuffix("Sevilla la Nueva") } }
        try app.waitForInput()
        app.press(.enter)
        try app.waitFor("Sevilla la Nueva")
        app.type("q")
        _ = try app.waitForExit()
        #expect(try host.run("geo", "list").stdout.contains("Sevilla la Nueva"))
    }

    /// Register: a taken email is refused at the email, before any password, and the refused
    /// text stays on the line to mend.
    @Test func aTakenEmailIsRefusedAtOnceAndKeptToMend() throws {
        let host = try TestHost(entries: [("Auth", ""), ("Settings", "")], language: "en")
        defer { withExtendedLifetime(host) {} }
        let registered = try host.run(
            arguments: ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"],
            input: "secret12!\nsecret12!\n")
        #expect(registered.succeeded, "\(registered)")
        #expect(try host.run("auth", "logout").succeeded)
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil(describing: "Welcome") { $0.isAlternate && $0.contains("Register") }
        try app.waitForInput()
        app.type("2")
        try app.waitFor("Email")
        try app.waitForInput()
        app.type("ann@example.com")
        try app.waitForInput()
        app.press(.enter)
        let screen = try app.waitUntil(describing: "refused") { $0.lines.contains { $0.lowercased().contains("already") } }
        try app.waitForInput()
        #expect(!screen.contains("Password"), "refused before any password: \(screen)")
        #expect(screen.lines.contains { $0.contains("Email") && $0.hasSuffix("ann@example.com") }, "kept to mend: \(screen)")
        app.press(.escape)
        app.type("q")
        _ = try app.waitForExit()
    }

    /// Right after Settings switches to French, the breadcrumb speaks French all along its path
    /// ("Accueil › Réglages"), not "Home › Réglages".
    @Test func theBreadcrumbSpeaksTheLanguageJustChosen() throws {
        let host = try world()
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 24, columns: 80, fullScreen: true)
        try app.waitUntil(describing: "Home") { $0.isAlternate && $0.lines.first?.contains("Home") == true }
        try app.waitForInput()
        // Home: 1 Places, 2 Settings; Settings: 3 Language; then 3 Français.
        app.type("2")
        try app.waitUntil(describing: "Settings") { $0.lines.first?.contains("Home › Settings") == true }
        try app.waitForInput()
        app.type("3")
        try app.waitFor("Français")
        try app.waitForInput()
        app.type("3")
        let screen = try app.waitUntil(describing: "French") { $0.contains("Langue") && $0.lines.first?.contains("Réglages") == true }
        #expect(screen.lines.first?.trimmingCharacters(in: .whitespaces) == "Accueil › Réglages", "\(screen.lines.first ?? "")")
        app.type("q")
        _ = try app.waitForExit()
    }

    /// `settings list` says an unset value is not set; `--json` keeps it empty.
    @Test func anUnsetSettingSaysSo() throws {
        let host = try world()
        let list = try host.run("settings", "list")
        #expect(list.stdout.contains("geo.defaultCountry = not set    (Default country)\n"), "\(list.stdout)")
        #expect(try host.run("settings", "list", "--json").stdout.contains(#""value":"""#))
    }

    /// Where `answer`, typed after `prompt`, starts and ends on `screen` (row and column), read
    /// row after row as it wraps.
    static func answer(_ answer: String, after prompt: String, on screen: TerminalScreen) -> (start: (Int, Int), end: (Int, Int))? {
        guard let row = screen.lines.firstIndex(where: { $0.contains(prompt) }), let range = screen.lines[row].range(of: prompt) else {
            return nil
        }
        let start = (row, screen.lines[row].distance(from: screen.lines[row].startIndex, to: range.upperBound))
        var remaining = Substring(answer)
        var (line, column) = start
        while line < screen.lines.count {
            let characters = Array(screen.lines[line])
            while column < characters.count, let next = remaining.first, characters[column] == next {
                remaining = remaining.dropFirst()
                column += 1
            }
            if remaining.isEmpty { return (start, (line, column)) }
            // The next row goes on after the body's one-column margin.
            line += 1
            column = 1
        }
        return nil
    }

    /// "Delete Sevilla (Spain)?" opens on Cancel: a stray Enter deletes nothing, and the footer
    /// says q cancels.
    @Test func aDestructiveQuestionOpensOnCancel() throws {
        let host = try world(cities: [("ES", "Sevilla")])
        defer { withExtendedLifetime(host) {} }
        let app = try places(host, rows: 24, columns: 80)
        app.type("3")
        try app.waitUntil(describing: "Which city?") { $0.lines.first?.contains("Which city?") == true }
        try app.waitForInput()
        app.press(.enter)
        let screen = try app.waitFor("Delete Sevilla (Spain)?")
        try app.waitForInput()
        #expect(screen.highlightedLines.dropFirst().first?.contains("2. Cancel") == true, "Cancel selected: \(screen.highlightedLines)")
        #expect(screen.lines.last?.contains("q Cancel") == true, "\(screen.lines.last ?? "")")
        app.press(.enter)
        try app.waitFor("Nothing was deleted.")
        app.type("q")
        _ = try app.waitForExit()
        #expect(try host.run("geo", "list").stdout.contains("Sevilla"))
    }
}
