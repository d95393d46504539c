import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Every word a person reads comes from a strings table: run in the test-only pseudo-locale
/// (`LANG=qps-ploc`, English with every letter accented inside `[!! … !!]`), every screen and
/// every command of every module prints no plain Latin letter outside what is not text —
/// command syntax, options, setting keys, country codes, paths and addresses, and the data
/// the test typed (in Greek, so it cannot pass for English).
@Suite struct PseudoLocaleTests {
    static let environment = ["LANG": "qps-ploc"]

    /// The four modules, with a catalog whose photos are described in Greek.
    static func app() throws -> TestHost {
        let folder = try TestEnvironment.temporaryFolder()
        let hits = (1...3).map { id in
            """
            {"id": \(100 + id), "pageURL": "https://example.org/photos/\(id)/", "type": "photo", "tags": "γάτα, ζώο",
             "previewURL": "images/p.png", "previewWidth": 1, "previewHeight": 1, "webformatURL": "images/l.png",
             "webformatWidth": 1, "webformatHeight": 1, "largeImageURL": "images/l.png", "imageWidth": 48, "imageHeight": 32,
             "imageSize": \(id == 1 ? 1 : 2048), "views": \(id), "downloads": 1, "likes": 0, "comments": 2, "collections": 1,
             "user_id": 7, "user": "Μίρα", "userImageURL": ""}
            """
        }
        try Data(#"{"total": 3, "totalHits": 3, "hits": [\#(hits.joined(separator: ","))]}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/catalog.json"))
        return try TestHost(
            entries: [
                ("Auth", ""), ("Photos", #""config": {"source": "catalog", "catalog": "\#(folder)/catalog.json", "perPage": 3}"#),
                ("Geo", ""), ("Settings", ""),
            ], environment: environment)
    }

    static func run(_ app: TestHost, _ arguments: [String], input: String = "") throws -> CommandResult {
        try app.run(arguments: arguments, input: input)
    }

    /// What is left of a line once everything that is not text is taken out.
    static func text(of line: String) -> String {
        var line = line
        // Command syntax: from "modhost " to an em dash or the end of the line.
        if let start = line.range(of: "modhost ") {
            let end = line[start.upperBound...].range(of: " — ")?.lowerBound ?? line.endIndex
            line.removeSubrange(start.lowerBound..<end)
        }
        let patterns = [
            #"https?://\S+"#, #"(^|\s|')/[^\s']*"#, #"--[a-z-]+( [A-Z]+\b)?"#,
            // An error's prefix: the program, then the module and command it is about.
            #"^modhost: \[!![^!]*!!\]: [a-z-]+( [a-z-]+)?:"#,
            // `settings list`: key = value (codes, as scripts read them).
            #"^\S+ = \S+"#, #"\b[a-z]+\.[a-zA-Z]+\b"#, #"\b[A-Z]{2}\b"#, #"modhost"#,
            // Keys to type: a letter on its own ("q", "1, 2, l, 0, q").
            #"(?<![\p{L}'])[a-zA-Z](?![\p{L}'])"#,
        ]
        for pattern in patterns {
            line = line.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return line
    }

    /// The lines of `output` that hold plain Latin letters outside translated text.
    static func untranslated(_ output: String) -> [String] {
        output.split(separator: "\n").map(String.init).filter { text(of: $0).contains { $0.isASCII && $0.isLetter } }
    }

    static func register(_ app: TestHost) throws {
        let result = try run(
            app, ["auth", "register", "--email", "άννα@παράδειγμα.ελ", "--name", "Άννα", "--password-stdin"],
            input: "secret12!\nsecret12!\n")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: NavigationWalkTests.cases.filter { !$0.path.contains("cat") })
    func everyScreen(_ screen: NavigationWalkTests.Case) throws {
        let app = try Self.app()
        try Self.register(app)
        #expect(try Self.run(app, ["geo", "add", "--country", "GR", "--city", "Αθήνα"]).status == 0)
        if !screen.loggedIn { _ = try Self.run(app, ["auth", "logout"]) }
        // The screen, a wrong answer on it (in Greek: typed text is echoed), then the end of input.
        let result = try Self.run(app, [], input: (screen.path + ["ξψζ"]).map { $0 + "\n" }.joined())
        #expect(result.status == 0)
        #expect(Self.untranslated(result.stdout + result.stderr) == [], "\(screen.name):\n\(result.stdout)\(result.stderr)")
    }

    /// The full-screen app speaks the pseudo-locale too: the title bar, the footer's keys, the
    /// status line, the pager and the country suggestions. Key names (Enter, Esc, PgUp…) are
    /// keys to press, not text.
    @Test func theFullScreenAppIsTranslatedToo() throws {
        let app = try Self.app()
        try Self.register(app)
        let session = try app.app(rows: 24, columns: 100, fullScreen: true)
        var seen: [String] = []
        func screen(_ what: String, _ condition: (TerminalScreen) -> Bool) throws {
            seen += try session.waitUntil(describing: what, condition).lines
        }
        try screen("Home") { $0.isAlternate && $0.lines.last?.contains("q") == true }
        session.type("4")
        try screen("Settings") { $0.lines.first?.contains("›") == true }
        session.type("h")
        try screen("the pager") { $0.lines.last?.contains("/") == true }
        session.type("q")
        session.press(.escape)
        try screen("Home again") { $0.lines.first?.contains("›") == false }
        session.type("3")
        try screen("Places") { $0.lines.first?.contains("›") == true }
        session.press(.enter)
        try screen("the country question") { $0.lines.contains { $0.contains("(AF)") } }
        session.type("ελλ")
        try screen("Greece found") { $0.lines.contains { $0.contains("(GR)") } && !$0.lines.contains { $0.contains("(AF)") } }
        session.press(.escape)
        session.press(.escape)
        try screen("Home, last") { $0.lines.first?.contains("›") == false }
        session.type("q")
        _ = try session.waitForExit()
        // Key names, and the word a line cut at the width ends in ("0/Es…").
        let keys = #"\b(Enter|Esc|PgUp|PgDn|Home|End)\b|\S*…\s*$"#
        let lines = seen.map { $0.replacingOccurrences(of: keys, with: " ", options: .regularExpression) }
        #expect(Self.untranslated(lines.joined(separator: "\n")) == [], "\(seen.joined(separator: "\n"))")
    }

    @Test func photosScreensAndForms() throws {
        let app = try Self.app()
        // Register with a bad email, a weak password and a mismatch; then Photos: search,
        // a photo's details, the next page; Places: an unknown country, then a city.
        let input = [
            "2", "όχι-email", "άννα@παράδειγμα.ελ", "Άννα", "κοντό", "secret12!", "άλλο", "secret12!",
            "2", "1", "γάτα", "1", "0", "n", "0", "0", "3", "1", "Ατλαντίδα", "GR", "Αθήνα", "1", "GR", "Αθήνα", "0", "0", "l", "0", "q",
        ]
        let result = try Self.run(app, [], input: input.map { $0 + "\n" }.joined())
        #expect(result.status == 0)
        #expect(result.stdout.contains("Μίρα"), "the catalog's photos were shown")
        #expect(Self.untranslated(result.stdout + result.stderr) == [], "\(result.stdout)")
    }

    @Test func everyCommand() throws {
        let app = try Self.app()
        let commands: [[String]] = [
            ["auth", "whoami"], ["auth", "logout"], ["auth", "login", "--email", "άννα@παράδειγμα.ελ", "--password-stdin"],
            ["auth", "register", "--email", "όχι", "--name", "Άννα", "--password-stdin"], ["auth", "reset-password", "--email", "x@y.zz"],
            ["auth", "register"], ["auth", "passwd", "--password-stdin"],
            ["geo", "list"], ["geo", "add", "--country", "GR", "--city", "Αθήνα"], ["geo", "add", "--country", "GR", "--city", "Αθήνα"],
            ["geo", "add", "--country", "Ατλαντίδα", "--city", "Χ"], ["geo", "add", "--city", "Χ"], ["geo", "list"],
            ["geo", "rename", "--country", "GR", "--city", "Αθήνα", "--to", "Αθήναι"],
            ["geo", "remove", "--country", "GR", "--city", "Αθήναι"],
            ["geo", "remove", "--country", "GR", "--city", "Αθήναι", "--yes"], ["geo", "add", "--town", "Χ"],
            ["photos", "search", "γάτα"], ["photos", "search"], ["photos", "search", "γάτα", "--page", "9"], ["photos", "show", "101"],
            ["photos", "show", "999"], ["photos", "show", "αβγ"],
            ["settings", "list"], ["settings", "get", "γλώσσα"], ["settings", "set", "photos.perPage", "1000"],
            ["settings", "set", "geo.defaultCountry", "Ατλαντίδα"], ["settings", "set", "photos.perPage", "5"],
        ]
        for arguments in commands {
            let result = try Self.run(app, arguments, input: "κωδικός\n")
            #expect(
                Self.untranslated(result.stdout + result.stderr) == [],
                "\(arguments.joined(separator: " ")):\n\(result.stdout)\(result.stderr)")
        }
        for module in ["auth", "geo", "photos", "settings"] {
            let list = try Self.run(app, [module, "--help"])
            #expect(Self.untranslated(list.stdout + list.stderr) == [], "\(module) --help:\n\(list.stdout)")
            let names = list.stdout.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                return words.count >= 3 && words[0] == "modhost" ? String(words[2]) : nil
            }
            for name in names {
                let help = try Self.run(app, [module, name, "--help"])
                #expect(Self.untranslated(help.stdout + help.stderr) == [], "\(module) \(name) --help:\n\(help.stdout)")
            }
        }
    }

    /// The host's own commands and their errors: tables, check, help, the developer tools.
    @Test func everyHostCommand() throws {
        let app = try Self.app()
        let folder = try TestEnvironment.temporaryFolder()
        let commands: [[String]] = [
            ["modules"], ["check"], ["routes"], ["--help"], ["--only", "Gep", "modules"],
            ["--enable", "Geo", "--disable", "Geo", "modules"],
            ["--log-level", "loud"], ["--module", folder, "modules"], ["--module", folder + "/lib-x.so", "modules"],
            ["--nosuch"], ["nosuch"], ["new"], ["new", "bad-name"], ["new", "x"],
            ["new", "Fine", "--kit", folder + "/none"], ["new", "Fine", "--output", folder], ["new", "Fine", "--output", folder + "/Fine"],
            ["dev"], ["dev", folder], ["bisect"], ["bisect", "--", "auth", "nosuch"], ["bisect", "--", "modules"],
            ["graph"], ["graph", "--format", "png"], ["completion", "tcsh"], ["help", "nosuch", "extra"],
        ]
        // And every command the host's help lists, from that list (not kept by hand): its
        // help, both ways a person asks for it.
        let words = try Self.listedCommandWords(app)
        #expect(words.count >= 10 && words.contains("graph") && words.contains("manual"), "\(words)")
        let helps = words.flatMap { [[$0, "--help"], ["help", $0]] }
        for arguments in commands + helps {
            let result = try Self.run(app, arguments)
            // What the test typed is quoted back as it was (or capitalized, as a suggestion).
            let typed = arguments.filter { !$0.hasPrefix("-") && !["modules", "new", "dev", "bisect", "auth"].contains($0) }
            let output = typed.reduce(result.stdout + result.stderr) {
                $0.replacingOccurrences(of: "'\($1)'", with: "''", options: .caseInsensitive)
            }
            let lines = Self.untranslated(output).filter { !Self.isToType($0) }
            #expect(lines == [], "\(arguments.joined(separator: " ")):\n\(result.stdout)\(result.stderr)")
        }
    }

    /// The built-in command words `modhost --help` lists: the first word of each command line
    /// above the `<module>` rows (not `(none)`, nor an option's `--`).
    static func listedCommandWords(_ app: TestHost) throws -> [String] {
        let help = try run(app, ["--help"]).stdout.split(separator: "\n")
        return help.prefix { !$0.hasPrefix("  <module>") }.compactMap { line -> String? in
            guard line.hasPrefix("  "), let word = line.split(separator: " ").first, word.allSatisfy(\.isLetter) else { return nil }
            return String(word)
        }
    }

    /// What `modhost new` prints for the person to type or paste (commands, a JSON entry),
    /// and the names in the host's tables (modules, routes, versions): not text.
    static func isToType(_ line: String) -> Bool {
        let names =
            #"(?i)\b(auth|photos|geo|settings|hostinfo)(route)?\b|\((uses|requires)\)|\d+\.\d+\.\d+|\bFine\b|ModuleKit|SDK|-x|\b(trace|debug|info|warn|error|critical)\b|^\s*source <\("#
            // A capability's words, as a manifest declares them.
            + #"|\b(network|exec|read|write)\b|\benv [A-Z_][A-Z0-9_]*"#
            // `--help`'s usage column: what to type, before the translated summary.
            + #"|^  \S.*?\s{2,}(?=\[!!)"#
        return line.hasPrefix("  swift ") || line.hasPrefix("  {")
            || text(of: line.replacingOccurrences(of: names, with: " ", options: .regularExpression))
                .allSatisfy { !($0.isASCII && $0.isLetter) }
    }

    @Test func aBrokenModulesFile() throws {
        let config = try TestEnvironment.write(#"{"modules": [{"name": "Geo", "enabeld": true}], "environment": 3, "modulez": 1}"#)
        let result = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "modules"], environment: Self.environment, unsetting: ["LC_ALL", "LC_MESSAGES"])
        #expect(result.status == 1)
        // JSON paths and the keys they quote are the file's own words.
        let lines = Self.untranslated(result.stderr).map {
            $0.replacingOccurrences(of: #"[a-zA-Z]+\[\d+\]|'[a-zA-Z]+'"#, with: " ", options: .regularExpression)
        }
        #expect(lines.filter { Self.text(of: $0).contains { $0.isASCII && $0.isLetter } } == [], "\(result.stderr)")
    }

    @Test func theCheckCatchesAnUntranslatedLine() {
        #expect(
            Self.untranslated("[!! Ŝáṽéď !!] Αθήνα\nSaved Athens.\n  modhost geo add --city NAME — [!! Ŝáṽé !!]\n") == ["Saved Athens."])
    }
}
