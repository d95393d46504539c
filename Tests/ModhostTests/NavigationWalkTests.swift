import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// The one navigation model, screen by screen: every menu of every module is left with `0`,
/// an empty answer and `q`; every question and form with an empty answer. Each case starts
/// the app on the shipped modules, walks to the screen, answers, and checks where it went.
@Suite struct NavigationWalkTests {
    /// A screen, how to reach it from the first screen, and the screen `0` leads back to.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let loggedIn: Bool
        let path: [String]
        /// The screen's title, or the question it asks.
        let screen: String
        /// The title of the screen Back returns to.
        let parent: String
        /// A menu (left with 0, Enter and q), or a question or form (left with Enter).
        let isMenu: Bool
        /// Whether `screen` is a title (menus, forms) rather than a question.
        var isTitled: Bool { isMenu || ["Log in", "Register"].contains(screen) }

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Logged in: Home is 2 Photos, 3 Places, 4 Settings (their places in modules.json).
        Case(name: "Photos", loggedIn: true, path: ["2"], screen: "Photos", parent: "Home", isMenu: true),
        Case(
            name: "Photos search", loggedIn: true, path: ["2", "1"], screen: "What are you looking for?", parent: "Photos", isMenu: false),
        Case(name: "Photos results", loggedIn: true, path: ["2", "1", "cat"], screen: "Photos of “cat”", parent: "Photos", isMenu: true),
        Case(
            name: "Photo details", loggedIn: true, path: ["2", "1", "cat", "1"], screen: "Photo #101", parent: "Photos of “cat”",
            isMenu: true),
        Case(
            name: "Download folder", loggedIn: true, path: ["2", "1", "cat", "1", "1"], screen: "Save in which folder?",
            parent: "Photo #101", isMenu: false),
        Case(name: "Photos of a place", loggedIn: true, path: ["2", "2"], screen: "Which city?", parent: "Photos", isMenu: true),
        Case(name: "Places", loggedIn: true, path: ["3"], screen: "Places", parent: "Home", isMenu: true),
        Case(name: "Add: country", loggedIn: true, path: ["3", "1"], screen: "Which country?", parent: "Places", isMenu: false),
        Case(name: "Add: city", loggedIn: true, path: ["3", "1", "FR"], screen: "Add a city in France", parent: "Places", isMenu: false),
        Case(name: "Rename: which city", loggedIn: true, path: ["3", "2"], screen: "Which city?", parent: "Places", isMenu: true),
        Case(name: "Rename: new name", loggedIn: true, path: ["3", "2", "1"], screen: "Rename Paris", parent: "Places", isMenu: false),
        Case(name: "Delete: which city", loggedIn: true, path: ["3", "3"], screen: "Which city?", parent: "Places", isMenu: true),
        Case(name: "Delete: confirm", loggedIn: true, path: ["3", "3", "1"], screen: "Delete city", parent: "Places", isMenu: true),
        Case(name: "Settings", loggedIn: true, path: ["4"], screen: "Settings", parent: "Home", isMenu: true),
        Case(
            name: "Settings: name", loggedIn: true, path: ["4", "1"], screen: "Display name (now Ann)", parent: "Settings", isMenu: false),
        Case(name: "Settings: password", loggedIn: true, path: ["4", "2"], screen: "Current password", parent: "Settings", isMenu: false),
        Case(name: "Settings: language", loggedIn: true, path: ["4", "3"], screen: "Language", parent: "Settings", isMenu: true),
        Case(
            name: "Settings: photos per page", loggedIn: true, path: ["4", "21"],
            screen: "New value for Photos per page (now 20, default 20, 3 to 200)?",
            parent: "Settings", isMenu: false),
        Case(name: "Settings: data source", loggedIn: true, path: ["4", "22"], screen: "Data source", parent: "Settings", isMenu: true),
        Case(
            name: "Settings: safe search", loggedIn: true, path: ["4", "23"], screen: "Safe search (suitable for all ages)",
            parent: "Settings", isMenu: true),
        Case(
            name: "Settings: default country", loggedIn: true, path: ["4", "31"],
            screen: "New value for Default country (now -, default -)?",
            parent: "Settings", isMenu: false),
        Case(name: "Settings: log out", loggedIn: true, path: ["4", "l"], screen: "Log out", parent: "Settings", isMenu: true),
        Case(name: "Home: log out", loggedIn: true, path: ["l"], screen: "Log out", parent: "Home", isMenu: true),
        // Logged out: Welcome is 1 Log in, 2 Register, 3 Reset password.
        Case(name: "Log in", loggedIn: false, path: ["1"], screen: "Log in", parent: "Welcome", isMenu: false),
        Case(name: "Register", loggedIn: false, path: ["2"], screen: "Register", parent: "Welcome", isMenu: false),
        Case(name: "Reset", loggedIn: false, path: ["3"], screen: "Reset password", parent: "Welcome", isMenu: true),
        Case(name: "Reset: request", loggedIn: false, path: ["3", "1"], screen: "Email", parent: "Reset password", isMenu: false),
        Case(name: "Reset: token", loggedIn: false, path: ["3", "2"], screen: "Reset token", parent: "Reset password", isMenu: false),
    ]

    /// The shipped modules.json, a data folder with Paris saved and Ann registered (logged in
    /// or not).
    static func app(loggedIn: Bool) throws -> TestHost {
        let host = try TestHost(entries: [
            ("Auth", ""), ("Photos", #""config": {"source": "catalog", "perPage": 20}"#), ("Geo", ""), ("Settings", ""),
        ])
        let run = { (arguments: [String], input: String) in try host.run(arguments: arguments, input: input) }
        #expect(
            try run(["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], "secret12!\nsecret12!\n")
                .status == 0)
        #expect(try run(["geo", "add", "--country", "FR", "--city", "Paris"], "").status == 0)
        if !loggedIn { #expect(try run(["auth", "logout"], "").status == 0) }
        return host
    }

    /// A title as the screen draws it: the text and its underline.
    static func title(_ text: String) -> String { text + "\n" + String(repeating: "=", count: text.count) + "\n" }

    @Test(arguments: cases)
    func everyScreenIsLeftByBackAndQuit(_ screen: Case) throws {
        let app = try Self.app(loggedIn: screen.loggedIn)
        let keys = screen.isMenu ? ["0", "", "q"] : [""]
        for key in keys {
            // Piped, as a script drives it: the end of input after the key ends the app
            // wherever it went.
            let input = (screen.path + [key]).map { $0 + "\n" }.joined()
            let result = try app.run(arguments: [], input: input)
            #expect(result.status == 0, "\(screen.name), '\(key)': \(result.stderr)")
            let marker = screen.isTitled ? Self.title(screen.screen) : screen.screen
            guard let shown = result.stdout.range(of: marker, options: .backwards) else {
                Issue.record("\(screen.name): '\(marker)' never shown:\n\(result.stdout)")
                continue
            }
            let after = result.stdout[shown.upperBound...]
            let quits = key == "q" && !screen.name.hasSuffix("log out") && screen.screen != "Delete city"
            if quits {
                #expect(after.hasSuffix("Which one? Goodbye.\n"), "\(screen.name), 'q' quits at once:\n\(after)")
                #expect(!after.contains("\n="), "\(screen.name), 'q': no other screen is drawn:\n\(after)")
            } else {
                #expect(after.contains(Self.title(screen.parent)), "\(screen.name), '\(key)' goes back to \(screen.parent):\n\(after)")
            }
        }
    }

    @Test(arguments: [true, false])
    func theFirstScreenIsLeftByQ(loggedIn: Bool) throws {
        let app = try Self.app(loggedIn: loggedIn)
        let result = try app.run(arguments: [], input: "q\n")
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("q Quit\nWhich one? Goodbye.\n"), "\(result.stdout)")
        // Back (0, Enter) is not offered where there is nothing to go back to.
        let back = try app.run(arguments: [], input: "0\n\n")
        #expect(back.stdout.components(separatedBy: "! Please answer with one of:").count == 3)
    }
}
