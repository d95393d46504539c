import Foundation
import ModuleKit
import TestSupport
import Testing

/// The host writes each message's English twice: beside its key in the code (what is said
/// without strings, and what `--json` and the logs carry) and in `en.lproj`. This holds the
/// two to each other: every `HostText("key", "English…")` and `UsageError(key: "key", …,
/// english: "…")` in the host's sources says what the English table says (an interpolation
/// `\(…)` standing for `%@`).
@Suite struct InlineEnglishTests {
    static let sources = TestEnvironment.repository + "/Sources"

    /// Every (key, inline English, file) pair in the host's targets.
    static func pairs() throws -> [(key: String, english: String, file: String)] {
        var found: [(String, String, String)] = []
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources).filter { $0.hasPrefix("Host") || $0 == "modhost" }
        for folder in folders.sorted() {
            let enumerator = FileManager.default.enumerator(atPath: sources + "/" + folder)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let path = sources + "/" + folder + "/" + file
                let text = Array(try String(contentsOfFile: path, encoding: .utf8).unicodeScalars)
                found += SwiftLiterals.messages(in: text).map { ($0.key, $0.english, folder + "/" + file) }
            }
        }
        return found
    }

    @Test func theInlineEnglishIsTheEnglishTable() throws {
        let folder = TestEnvironment.buildFolder + "/ModuleHost_HostModel.resources/Strings"
        let english = try ModuleStrings.loadEveryLocale(module: "modhost", from: folder, locale: LocaleSetting(environment: [:]))
            .tables["en", default: [:]]
        let pairs = try Self.pairs()
        // The scanner found the messages: far more than a handful.
        #expect(pairs.count > 150, "\(pairs.count)")
        for (key, inline, file) in pairs {
            let table = english[key] ?? english[key + "#other"]
            #expect(table != nil, "\(file): '\(key)' is not in en.lproj")
            guard let table, !table.isEmpty else { continue }
            #expect(inline == table, "\(file): '\(key)'\n  code:    \(inline)\n  en.lproj: \(table)")
        }
    }

    @Test func theScannerReadsWhatTheCodeWrites() {
        let code = #"""
            HostText("a.b", "it's \"quoted\"", [.plain(x)]); UsageError(key: "c.d", [n], english: "'\(n ?? "")' and \(f(")"))!")
            HostText(
                "e.f",
                #"raw "text""#)
            UsageError(
                key: "i.j", [x],
                english: "split \(x)")
            HostText("", "no key"); HostText("g.h", "one, " + "two")
            """#
        let found = SwiftLiterals.messages(in: Array(code.unicodeScalars))
        #expect(found.map(\.key) == ["a.b", "c.d", "e.f", "i.j", "g.h"])
        #expect(found.map(\.english) == [#"it's "quoted""#, "'%@' and %@!", #"raw "text""#, "split %@", "one, two"])
    }
}

/// A small reader of Swift string literals, enough for the host's messages: plain and raw
/// (`#"…"#`) single-line literals, escapes, and interpolations (read as `%@`, their own
/// nested strings and parentheses skipped).
enum SwiftLiterals {
    static func messages(in text: [Unicode.Scalar]) -> [(key: String, english: String)] {
        var found: [(String, String)] = []
        var index = 0
        while index < text.count {
            if matches(text, index, "HostText(") {
                var at = skipSpace(text, index + "HostText(".count)
                if let (key, afterKey) = literal(text, at), !key.isEmpty {
                    at = skipSpace(text, afterKey)
                    if at < text.count, text[at] == ",", let english = joined(text, skipSpace(text, at + 1)) {
                        found.append((key, english))
                    }
                }
            } else if matches(text, index, "UsageError("), matches(text, skipSpace(text, index + "UsageError(".count), "key: ") {
                let at = skipSpace(text, index + "UsageError(".count) + "key: ".count
                if let (key, afterKey) = literal(text, at), let english = find(text, afterKey, "english: ") {
                    if let value = joined(text, english) { found.append((key, value)) }
                }
            }
            index += 1
        }
        return found
    }

    /// The literal at `start`, joined with those `+` adds to it (`"…" + "…"`).
    private static func joined(_ text: [Unicode.Scalar], _ start: Int) -> String? {
        guard var (value, at) = literal(text, start) else { return nil }
        while true {
            let plus = skipSpace(text, at)
            guard plus < text.count, text[plus] == "+", let (more, after) = literal(text, skipSpace(text, plus + 1)) else { return value }
            value += more
            at = after
        }
    }

    private static func matches(_ text: [Unicode.Scalar], _ at: Int, _ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        return at + scalars.count <= text.count && Array(text[at..<at + scalars.count]) == scalars
    }

    private static func skipSpace(_ text: [Unicode.Scalar], _ start: Int) -> Int {
        var at = start
        while at < text.count, text[at] == " " || text[at] == "\n" { at += 1 }
        return at
    }

    /// The position after `word`, looked for before the call's closing parenthesis.
    private static func find(_ text: [Unicode.Scalar], _ start: Int, _ word: String) -> Int? {
        var at = start
        var depth = 0
        while at < text.count {
            if matches(text, at, word) && depth == 0 { return at + word.unicodeScalars.count }
            if text[at] == "\"", let (_, after) = literal(text, at) {
                at = after
                continue
            }
            if text[at] == "(" || text[at] == "[" { depth += 1 }
            if text[at] == ")" || text[at] == "]" {
                if depth == 0 { return nil }
                depth -= 1
            }
            at += 1
        }
        return nil
    }

    /// The string literal at `start` (its value, interpolations as `%@`) and the position after it.
    static func literal(_ text: [Unicode.Scalar], _ start: Int) -> (String, Int)? {
        var at = start
        var hashes = 0
        while at < text.count, text[at] == "#" {
            hashes += 1
            at += 1
        }
        guard at < text.count, text[at] == "\"", !matches(text, at, "\"\"\"") else { return nil }
        at += 1
        var value = ""
        let escape = "\\" + String(repeating: "#", count: hashes)
        while at < text.count {
            let scalar = text[at]
            if scalar == "\"", matches(text, at + 1, String(repeating: "#", count: hashes)) { return (value, at + 1 + hashes) }
            if scalar == "\n" { return nil }
            if matches(text, at, escape) {
                at += escape.unicodeScalars.count
                guard at < text.count else { return nil }
                switch text[at] {
                case "(":
                    value += "%@"
                    at = skipInterpolation(text, at + 1)
                    continue
                case "n": value += "\n"
                case "t": value += "\t"
                default: value.unicodeScalars.append(text[at])
                }
                at += 1
                continue
            }
            value.unicodeScalars.append(scalar)
            at += 1
        }
        return nil
    }

    /// The position after the parenthesis that closes an interpolation begun before `start`.
    private static func skipInterpolation(_ text: [Unicode.Scalar], _ start: Int) -> Int {
        var at = start
        var depth = 1
        while at < text.count {
            if text[at] == "\"", let (_, after) = literal(text, at) {
                at = after
                continue
            }
            if text[at] == "(" { depth += 1 }
            if text[at] == ")" {
                depth -= 1
                if depth == 0 { return at + 1 }
            }
            at += 1
        }
        return at
    }
}
