import Foundation
import Testing

@testable import ModuleKit

/// The one sink for terminal text: what it shows as `?`, what it keeps, and every writer of
/// the kit that passes text through it.
@MainActor
@Suite struct TerminalTextTests {
    /// Each kind of character a terminal obeys, as a hostile server would send it.
    nonisolated static let obeyed: [(String, String)] = [
        ("\u{1B}]2;pwned\u{7}", "?]2;pwned?"), ("\u{1B}[2J", "?[2J"), ("\u{1B}[31mred", "?[31mred"), ("a\rb", "a?b"),
        ("\u{0}\u{8}\u{7F}", "???"), ("\u{9B}31m", "?31m"), ("\u{85}\u{9F}", "??"), ("evil\u{202E}txt.exe", "evil?txt.exe"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "????"), ("\u{2066}\u{2067}\u{2068}\u{2069}", "????"),
    ]

    @Test(arguments: obeyed)
    func whatATerminalWouldObeyIsShown(text: String, shown: String) {
        #expect(TerminalText.containsControl(text))
        #expect(TerminalText.visible(text) == shown)
    }

    /// Lines, tabs and every printable script stay as they are; emoji joiners and marks too.
    @Test(arguments: ["plain", "two\nlines\tand a tab", "Ελληνικά · 日本語 · עברית", "👩‍👩‍👧 e\u{301}", "\u{A0}\u{200D}\u{2060}", "€ ‚ ™"])
    func printableTextIsKept(text: String) {
        #expect(!TerminalText.containsControl(text))
        #expect(TerminalText.visible(text) == text)
    }

    /// The byte scan agrees with the scalar rule on every scalar of the first planes.
    @Test func theByteScanAgreesWithTheRule() {
        for value in UInt32(0)...0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(TerminalText.containsControl("a" + String(scalar) + "b") == TerminalText.isControl(scalar), "U+\(value)")
        }
    }

    @Test func theLineModeWritesOnlyItsOwnEscapes() {
        let terminal = ColourTerminal()
        let ui = TerminalUI(terminal: terminal, labels: { $0.rawValue })
        ui.title("\u{1B}]2;pwned\u{7}Title")
        ui.print("\u{1B}[2Jline\u{202E}")
        ui.error("\u{1B}[31merror")
        ui.success("ok\u{9B}")
        let stripped = terminal.output.replacingOccurrences(of: "\u{1B}[1m", with: "").replacingOccurrences(of: "\u{1B}[31m", with: "")
            .replacingOccurrences(of: "\u{1B}[32m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(stripped == "\n?]2;pwned?Title\n===============\n?[2Jline?\n! ?[31merror\nok?\n", "\(terminal.output.debugDescription)")
        #expect(terminal.output.contains("\u{1B}[1m?]2;pwned?Title\u{1B}[0m"), "the kit's bold around the shown text")
    }

    @Test func aMenuAndAFormShowWhatTheyAreGiven() {
        let (ui, terminal) = makeUI(["1", "\u{1B}[2J"])
        _ = ui.menu("Pick\u{1B}[H", ["\u{1B}]0;x\u{7}One"], details: ["\u{202E}detail"])
        _ = ui.fill(Form(title: "T", fields: [Form.Field(key: "k", label: "Name\u{1B}[A")]))
        #expect(!terminal.output.unicodeScalars.contains { TerminalText.isControl($0) }, "\(terminal.output.debugDescription)")
        #expect(terminal.output.contains("?]0;x?One") && terminal.output.contains("?detail") && terminal.output.contains("Name?[A"))
    }

    @Test func aLoggedLineStaysOneLineAndShowsItsEscapes() {
        let lines = LockedLines()
        let logger = Logger(label: "Photos", minimumLevel: .info) { lines.append($0) }
        logger.info("fetched \u{1B}]2;pwned\u{7}\nmodhost: error: forged")
        #expect(lines.all == ["modhost: info: Photos: fetched \\u{1B}]2;pwned\\u{7}\\nmodhost: error: forged\n"])
    }

    @Test func jsonEscapesWhatATerminalWouldObeyAndKeepsItsMeaning() throws {
        let value = ["tags": "a\u{1B}b\u{85}c\u{202E}d\u{7F}"]
        let json = JSONOutput.string(value)
        #expect(json == #"{"tags":"a\u001bb\u0085c\u202ed\u007f"}"#)
        let decoded = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(decoded == value)
    }

    @Test func aStringsValueWithAControlCharacterIsNamedByCheck() throws {
        let folder = try TestFolder.make()
        for (code, table) in ["en": "\"ok\" = \"fine\";\n", "fr": "\"ok\" = \"bien \\U001B]2;pwned\\U0007\";\n"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(code).lproj", withIntermediateDirectories: true)
            try Data(table.utf8).write(to: URL(fileURLWithPath: "\(folder)/\(code).lproj/Localizable.strings"))
        }
        let locale = LocaleSetting(environment: [:])
        // A run shows it as `?`; check refuses it, naming the file, the key and the character.
        let strings = try ModuleStrings.load(module: "Geo", from: folder, locale: LocaleSetting(environment: ["LANG": "fr_FR"]))
        #expect(strings["ok"] == "bien \u{1B}]2;pwned\u{7}")
        let error = #expect(throws: StringsError.self) { try ModuleStrings.loadEveryLocale(module: "Geo", from: folder, locale: locale) }
        #expect(
            error?.message
                == "module 'Geo': '\(folder)/fr.lproj/Localizable.strings': the value of 'ok' holds the control character U+001B, which a terminal would obey; remove it"
        )
    }
}

/// A terminal that takes colour, recording what the kit writes to it.
private final class ColourTerminal: Terminal, @unchecked Sendable {
    private let lock = NSLock()
    private var written = ""
    let usesColor = true
    let isInteractive = true
    func readLine() -> String? { nil }
    func readSecret() -> String? { nil }
    func write(_ text: String) { lock.withLock { written += text } }
    var output: String { lock.withLock { written } }
}

private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

private enum TestFolder {
    static func make() throws -> String {
        let folder = NSTemporaryDirectory() + "terminal-text-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return folder
    }
}
