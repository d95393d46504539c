import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The README's picture of the full-screen app is the screen model's text of the real app,
/// so it cannot drift from what a person sees.
@Suite struct FullScreenPictureTests {
    @Test func theReadmePictureIsWhatTheAppDraws() throws {
        let host = try TestHost(entries: [("Photos", #""config": {"source": "catalog"}"#), ("Geo", ""), ("Settings", "")])
        defer { withExtendedLifetime(host) {} }
        let app = try host.app(rows: 14, columns: 72, fullScreen: true)
        try app.waitFor("Home")
        app.type("3")
        try app.waitUntil(describing: "Settings") { $0.lines.first?.contains("Home › Settings") == true }
        app.press(.down)
        let screen = try app.waitUntil(describing: "per page selected") { $0.highlightedLines.contains { $0.contains("per page") } }
        let picture = screen.lines.map { "│" + $0.padding(toLength: 72, withPad: " ", startingAt: 0) + "│" }
        let framed = (["┌" + String(repeating: "─", count: 72) + "┐"] + picture + ["└" + String(repeating: "─", count: 72) + "┘"])
            .joined(separator: "\n")
        let readme = try String(contentsOfFile: TestEnvironment.repository + "/README.md", encoding: .utf8)
        #expect(readme.contains("```\n" + framed + "\n```"), "the README's picture, as the app draws it now:\n\(framed)")
        app.type("q")
        _ = try app.waitForExit()
    }
}

/// Every screen of the line mode's walk (`NavigationWalkTests.cases`), reached full screen by
/// digits at 80×24 and by arrows at 50×20, then left with Esc to the screen before it.
@Suite struct FullScreenWalkTests {
    enum Way: String, CustomTestStringConvertible, Sendable, CaseIterable {
        case digits, arrows
        var testDescription: String { rawValue }
    }

    /// The breadcrumb's last step.
    static func here(_ screen: TerminalScreen) -> String {
        screen.lines.first?.components(separatedBy: " › ").last?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    /// Whether the screen shows `text`, maybe wrapped over several rows.
    static func shows(_ screen: TerminalScreen, _ text: String) -> Bool {
        let joined = screen.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return joined.contains(text)
    }

    /// The numbers of the menu's items, top to bottom, and the selected one's place.
    static func items(_ screen: TerminalScreen) -> (numbers: [String], selected: Int?) {
        let pattern = #"^\s*(\d+)\.\s"#
        var numbers: [String] = []
        var selected: Int?
        for line in screen.lines.dropFirst() {
            guard let range = line.range(of: pattern, options: .regularExpression) else { continue }
            let number = line[range].trimmingCharacters(in: .whitespaces).dropLast()
            if screen.highlightedLines.contains(line) { selected = numbers.count }
            numbers.append(String(number))
        }
        return (numbers, selected)
    }

    /// Sends what `act` does and waits until the screen has changed and the app waits for a
    /// key again: a frame drawn whole, not a moment picked by a clock.
    static func step(_ app: TerminalSession, _ act: () -> Void) throws {
        // The text or the selection: a move changes only which row is in reverse video.
        let before = app.screen
        act()
        try app.waitUntil(describing: "a new frame") { $0.lines != before.lines || $0.highlightedLines != before.highlightedLines }
        try app.waitForInput()
    }

    @Test(arguments: NavigationWalkTests.cases, Way.allCases)
    func everyScreenIsReachedAndLeft(_ screen: NavigationWalkTests.Case, _ way: Way) throws {
        let host = try NavigationWalkTests.app(loggedIn: screen.loggedIn)
        defer { withExtendedLifetime(host) {} }
        let (rows, columns) = way == .digits ? (24, 80) : (20, 50)
        let app = try host.app(rows: rows, columns: columns, fullScreen: true)
        try app.waitUntil(describing: "the first screen") { $0.isAlternate && $0.cursorHidden && !$0.lines[0].isEmpty }
        try app.waitForInput()
        for step in screen.path {
            guard app.screen.cursorHidden else {
                // A question: the answer, seen whole on its line (the walk types none that is
                // secret), then Enter.
                app.type(step)
                try app.waitUntil(describing: "'\(step)' typed") { $0.lines.contains { $0.hasSuffix("? " + step) } }
                try app.waitForInput()
                try Self.step(app) { app.press(.enter) }
                continue
            }
            let (numbers, selected) = Self.items(app.screen)
            if way == .arrows, let target = numbers.firstIndex(of: step), let selected {
                let key: Key = target > selected ? .down : .up
                for _ in 0..<abs(target - selected) { try Self.step(app) { app.press(key) } }
                try Self.step(app) { app.press(.enter) }
            } else {
                // A digit chooses at once unless another number starts with it (then Enter);
                // each key brings a frame of its own ("Which one? 2" in the footer, then 21).
                for character in step { try Self.step(app) { app.type(String(character)) } }
                if numbers.contains(step) && numbers.contains(where: { $0 != step && $0.hasPrefix(step) }) {
                    try Self.step(app) { app.press(.enter) }
                }
            }
        }
        let shown = app.screen
        #expect(Self.here(shown) == screen.screen || Self.shows(shown, screen.screen), "\(screen.name) by \(way): \(shown)")
        #expect(shown.lines.count == rows && shown.lines.allSatisfy { $0.count <= columns })
        try Self.step(app) { app.press(.escape) }
        #expect(Self.here(app.screen) == screen.parent, "\(screen.name) by \(way): Esc goes back to \(screen.parent): \(app.screen)")
        app.type("q")
        let ended = try app.waitForExit()
        #expect(ended.succeeded && !app.screen.isAlternate, "\(screen.name) by \(way): \(ended)")
    }
}
