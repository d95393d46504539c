import Foundation
import Testing

@testable import ModuleKit

/// The parts of the full-screen mode that need no terminal: keys from bytes, display widths
/// and wrapping, the line editor, and the renderer's bytes.
@Suite struct FullScreenPartsTests {
    @Test func keysAreDecodedFromWhatTerminalsSend() {
        let bytes = Array(
            "a\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}[D\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\r\u{7F}\u{01}é日".utf8)
        let (keys, rest) = Key.decode(bytes, escapeIsComplete: false)
        #expect(
            keys == [
                .character("a"), .up, .down, .right, .left, .pageUp, .pageDown, .home, .end, .home, .end, .delete, .enter, .backspace,
                .control("a"), .character("é"), .character("日"),
            ])
        #expect(rest.isEmpty)
    }

    /// xterm's SGR mouse reports: a press of the main button (Shift and the like held or not)
    /// and the wheel; a release and the other buttons are nothing here.
    @Test func mouseReportsAreDecoded() {
        let bytes = Array("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<64;1;1M\u{1B}[<65;10;20M\u{1B}[<2;1;1M\u{1B}[<4;7;2M\u{1B}[<0;0;1M".utf8)
        let (keys, rest) = Key.decode(bytes, escapeIsComplete: false)
        #expect(
            keys == [
                .mouse(.init(action: .click, row: 2, column: 4)), .mouse(.init(action: .wheelUp, row: 0, column: 0)),
                .mouse(.init(action: .wheelDown, row: 19, column: 9)), .unknown, .mouse(.init(action: .click, row: 1, column: 6)),
                .unknown,
            ], "a release is no key at all")
        #expect(rest.isEmpty)
        // The X10 form of terminals without SGR: a press at column 17, row 18 and its release,
        // never typed as the digits and letters their bytes are.
        let x10 = Key.decode(
            [0x1B, 0x5B, 0x4D, 32, 49, 50, 0x1B, 0x5B, 0x4D, 35, 49, 50, 0x1B, 0x5B, 0x4D, 96, 33, 33], escapeIsComplete: false)
        #expect(x10.keys == [.mouse(.init(action: .click, row: 17, column: 16)), .mouse(.init(action: .wheelUp, row: 0, column: 0))])
        let x10Cut = Key.decode([0x1B, 0x5B, 0x4D, 32, 49], escapeIsComplete: false)
        #expect(x10Cut.keys.isEmpty && x10Cut.rest.count == 5)
        let cut = Key.decode(Array("\u{1B}[<0;12".utf8), escapeIsComplete: false)
        #expect(cut.keys.isEmpty && cut.rest.count == 7, "a report cut by the read waits for its end")
    }

    /// Text a terminal marks as pasted is text: an escape, a line break or a `q` in it is no
    /// key, its control characters are shown, and a paste cut by the reads goes on where the
    /// next read begins.
    @Test func pastedTextIsTextNeverKeys() {
        let bytes = Array("a\u{1B}[200~ann@example.com\u{1B}]2;x\u{07}\tq\r\n\u{1B}[201~\u{1B}[Aq".utf8)
        var pasting = false
        let (keys, rest) = Key.decode(bytes, escapeIsComplete: false, pasting: &pasting)
        #expect(keys == [.character("a"), .paste("ann@example.com?]2;x? q"), .up, .character("q")])
        #expect(rest.isEmpty && !pasting)
        // Cut by the reads: inside the text, in a character, in the end marker.
        let whole = Array("\u{1B}[200~zoé\u{1B}[201~x".utf8)
        for cut in 1..<whole.count {
            var pasting = false
            var found = Key.decode(Array(whole[..<cut]), escapeIsComplete: false, pasting: &pasting)
            let next = found.rest + whole[cut...]
            found.keys += Key.decode(next, escapeIsComplete: false, pasting: &pasting).keys
            let text = found.keys.compactMap { key -> String? in if case .paste(let text) = key { text } else { nil } }.joined()
            #expect(text == "zoé", "cut at \(cut): \(found.keys)")
            #expect(found.keys.last == .character("x") && !pasting, "cut at \(cut): \(found.keys)")
        }
        // A paste whose end never comes is text to the end; a line takes it, a menu does not.
        var open = false
        #expect(Key.decode(Array("\u{1B}[200~q".utf8), escapeIsComplete: true, pasting: &open).keys == [.paste("q")])
        #expect(open, "still inside the paste")
        var editor = LineEditor("ab")
        #expect(editor.apply(.paste("cd")) && editor.string == "abcd" && editor.cursorColumn == 4)
        // Typed ahead to another reader, it is marked as pasted again.
        #expect(Key.decode(Key.paste("q w").typedBytes, escapeIsComplete: true).keys == [.paste("q w")])
    }

    /// A long paste comes in pieces: a line break inside it is a space wherever the reads cut
    /// it (only the paste's own last break is dropped), a character cut after a whole one
    /// waits for its rest, and a line already at its longest takes no more without failing.
    @MainActor @Test func aLongPasteReadsAsOneText() {
        var pasting = false
        var keys = Key.decode(Array("\u{1B}[200~foo\n".utf8), escapeIsComplete: false, pasting: &pasting).keys
        keys += Key.decode(Array("bar\n\u{1B}[201~".utf8), escapeIsComplete: false, pasting: &pasting).keys
        #expect(keys == [.paste("foo "), .paste("bar")] && !pasting)
        pasting = true
        let cut = Key.decode([0x61, 0xC3, 0xA9, 0xE2], escapeIsComplete: false, pasting: &pasting)
        #expect(cut.keys == [.paste("aé")] && cut.rest == [0xE2], "the € whose first byte came waits for the rest")
        var full = LineEditor(String(repeating: "x", count: LineEditor.maximumLength + 10))
        #expect(full.apply(.paste("more")) && full.string.count == LineEditor.maximumLength + 10)
        // Handed to the terminal's next reader in the middle of a paste, it stays a paste there.
        let session = FullScreenSession(input: -1, output: -1, usesColor: false)
        session.giveTypedAhead(Array("x\u{1B}[200~ab".utf8))
        let taken = session.takeTypedAhead()
        var open = false
        #expect(Key.decode(taken, escapeIsComplete: false, pasting: &open).keys == [.character("x"), .paste("ab")])
        #expect(open, "the rest of the paste, still to come from the terminal, is pasted text too")
    }

    @Test func aSequenceCutAtTheEndWaitsAndALoneEscapeIsEscape() {
        #expect(Key.decode([0x1B, UInt8(ascii: "[")], escapeIsComplete: false) == ([], [0x1B, UInt8(ascii: "[")]))
        #expect(Key.decode([0x1B], escapeIsComplete: false) == ([], [0x1B]))
        #expect(Key.decode([0x1B], escapeIsComplete: true).keys == [.escape])
        #expect(Key.decode(Array("日".utf8.prefix(2)), escapeIsComplete: false).rest.count == 2, "half a character waits")
    }

    /// Keys typed ahead go to the terminal's next reader as the bytes a terminal sends for
    /// them, which read back as the same keys; a mouse event, which points at the screen it was
    /// made on, does not go.
    @Test func aKeyTypedAheadReadsBackAsItself() {
        let keys: [Key] = [
            .character("2"), .character("é"), .character("日"), .enter, .tab, .backspace, .delete, .escape, .character("q"), .up, .down,
            .left, .right, .home, .end, .pageUp, .pageDown, .control("a"), .control("u"),
        ]
        #expect(Key.decode(keys.flatMap(\.typedBytes), escapeIsComplete: true).keys == keys)
        #expect(Key.mouse(Key.Mouse(action: .click, row: 1, column: 2)).typedBytes == [])
    }

    /// What a session read and did not hand out yet is taken whole, in order, and what it is
    /// given is read first.
    @Test @MainActor func aSessionHandsOnWhatWasTypedAheadAndReadsWhatItIsGivenFirst() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let session = FullScreenSession(input: ends[0], output: ends[1], usesColor: false)
        session.giveTypedAhead(Array("12\u{1B}[A".utf8))
        #expect(session.readKey() == .key(.character("1")))
        #expect(session.takeTypedAhead() == Array("2\u{1B}[A".utf8))
        #expect(session.takeTypedAhead() == [], "taken once")
        session.giveTypedAhead(Array("x".utf8))
        _ = Array("y".utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, 1) }
        #expect(session.readKey() == .key(.character("x")), "what it was given comes before what it reads")
        #expect(session.readKey() == .key(.character("y")))
        // From another process: no mouse report (a click on this screen), at most 64 keys.
        session.giveTypedAhead(Array("\u{1B}[<0;5;5M".utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 100))
        #expect(session.takeTypedAhead() == [UInt8](repeating: UInt8(ascii: "z"), count: 64))
    }

    @Test func widthsComeFromTheCLibrary() {
        DisplayWidth.prepare()
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本") == 4, "East Asian wide")
        #expect(DisplayWidth.of("e\u{301}") == 1, "a combining mark takes no column")
        #expect(DisplayWidth.truncate("United States", to: 8) == "United …")
    }

    @Test func wordsWrapAtTheWidthNeverMidWord() {
        DisplayWidth.prepare()
        #expect(DisplayWidth.wrap("Unit States of America", width: 10) == ["Unit", "States of", "America"])
        #expect(DisplayWidth.wrap("Bilder herunterladen", width: 14) == ["Bilder", "herunterladen"])
        #expect(DisplayWidth.wrap("Donaudampfschiff", width: 8) == ["Donaudam", "pfschiff"], "only a word longer than a line is broken")
        #expect(DisplayWidth.wrap("  1. a long item here", width: 10) == ["  1. a", "  long", "  item", "  here"], "the indentation stays")
        #expect(DisplayWidth.wrap("日本語の文", width: 4) == ["日本", "語の", "文"])
        #expect(DisplayWidth.wrap("one\ntwo", width: 10) == ["one", "two"])
    }

    /// A short width drops the moves everyone knows, then the words of the last keys: every
    /// key of the screen stays in the footer.
    @Test func theFooterKeepsEveryKeyAsTheWidthShrinks() {
        let items = ["↑↓ move", "Enter open", "a About", "c Check", "h Help", "l Log Out", "0/Esc Back", "q Quit"]
        let optional: Set = ["↑↓ move", "Enter open"]
        let wide = FullScreenPresenter.fit(items, optional: optional, width: 100)
        #expect(wide == items.joined(separator: " · "))
        #expect(
            FullScreenPresenter.fit(items, optional: optional, width: 60) == "a About · c Check · h Help · l Log Out · 0/Esc Back · q Quit")
        // Closer together before a word goes: at 50 columns every key keeps its word.
        #expect(FullScreenPresenter.fit(items, optional: optional, width: 56) == "a About  c Check  h Help  l Log Out  0/Esc Back  q Quit")
        #expect(FullScreenPresenter.fit(items, optional: optional, width: 50) == "a About c Check h Help l Log Out 0/Esc Back q Quit")
        #expect(FullScreenPresenter.fit(items, optional: optional, width: 49) == "a About · c Check · h Help · l · 0/Esc · q")
        #expect(
            FullScreenPresenter.fit(items, optional: optional, width: 20) == "a · c · h · l · 0/Esc · q",
            "the keys alone, cut only past this")
        let pager = ["↑↓ PgUp PgDn", "/ search", "q close", "1–9 / 40"]
        #expect(
            FullScreenPresenter.fit(pager, optional: ["↑↓ PgUp PgDn"], fixed: ["1–9 / 40"], width: 20) == "/ · q · 1–9 / 40",
            "a position is never shortened")
    }

    @Test func theLineEditorEditsAsAShellDoes() {
        var editor = LineEditor("hello world")
        for key: Key in [.left, .left, .left, .left, .left, .backspace] { _ = editor.apply(key) }
        #expect(editor.string == "helloworld" && editor.cursor == 5)
        _ = editor.apply(.character(","))
        _ = editor.apply(.home)
        _ = editor.apply(.delete)
        #expect(editor.string == "ello,world")
        _ = editor.apply(.end)
        _ = editor.apply(.control("w"))
        #expect(editor.string == "")
        editor = LineEditor("one two three")
        _ = editor.apply(.control("w"))
        #expect(editor.string == "one two ")
        _ = editor.apply(.left)
        _ = editor.apply(.control("u"))
        #expect(editor.string == " " && editor.cursor == 0)
        _ = editor.apply(.control("e"))
        #expect(editor.cursor == 1)
    }

    /// A selection moving one row on a 100×30 list rewrites the two rows that changed and
    /// nothing else: at most twice the changed cells in bytes, moves and styles included.
    @Test func aSelectionMoveWritesOnlyTheRowsThatChanged() {
        func list(selected: Int) -> ScreenGrid {
            var grid = ScreenGrid(rows: 30, columns: 100)
            grid.put(" Home › Places", row: 0, column: 0, style: [.reverse, .bold])
            for row in 1..<29 {
                grid.put("  \(row). City number \(row)", row: row, column: 0, style: row == selected ? [.reverse] : [])
                if row == selected { grid.style(row: row, [.reverse]) }
            }
            return grid
        }
        let first = ScreenRenderer.bytes(from: nil, to: list(selected: 3), cursor: nil, color: true)
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[H\u{1B}[2J"), "the first frame paints it all")
        let move = ScreenRenderer.bytes(from: list(selected: 3), to: list(selected: 4), cursor: nil, color: true)
        let changed = (0..<30).flatMap { row in (0..<100).map { (row, $0) } }.filter {
            list(selected: 3)[$0.0, $0.1] != list(selected: 4)[$0.0, $0.1]
        }
        #expect(changed.count == 200, "two rows of 100")
        #expect(move.utf8.count <= 2 * changed.count, "\(move.utf8.count) bytes for \(changed.count) cells")
        #expect(
            ScreenRenderer.bytes(from: list(selected: 4), to: list(selected: 4), cursor: nil, color: true) == "",
            "nothing changed, nothing written")
    }

    @Test func controlCharactersAModulePrintsCannotMoveTheCursor() {
        var grid = ScreenGrid(rows: 2, columns: 20)
        grid.put("a\u{1B}[2Jb", row: 0, column: 0)
        #expect((0..<6).map { grid[0, $0].character } == ["a", "?", "[", "2", "J", "b"])
    }

    @Test func suggestionsAreFoundFzfStyleIgnoringCaseAndAccents() {
        let countries = [
            Suggestion("Österreich (AT)", value: "AT", terms: ["AT", "Austria", "Autriche"]),
            Suggestion("Deutschland (DE)", value: "DE", terms: ["DE", "Germany", "Allemagne"]),
            Suggestion("Dänemark (DK)", value: "DK", terms: ["DK", "Denmark"]),
        ]
        #expect(Suggestion.filter(countries, by: "").map(\.value) == ["AT", "DE", "DK"], "nothing typed: all, in order")
        #expect(Suggestion.filter(countries, by: "oster").map(\.value) == ["AT"], "accents ignored")
        #expect(Suggestion.filter(countries, by: "ALLEM").map(\.value) == ["DE"], "another language's name, any case")
        #expect(Suggestion.filter(countries, by: "dk").map(\.value) == ["DK"], "the code")
        #expect(Suggestion.filter(countries, by: "d").map(\.value) == ["DE", "DK"], "the start of a title first")
        #expect(Suggestion.filter(countries, by: "r").map(\.value) == ["AT", "DK", "DE"], "anywhere in a title before anywhere in a term")
        #expect(Suggestion.filter(countries, by: "dnmk").map(\.value) == ["DK"], "letters in order")
        #expect(Suggestion.filter(countries, by: "zz").isEmpty)
    }

    /// An answer that is a suggestion exactly comes before every fuzzy match: `ES` is Spain,
    /// though Estonia's name begins with it; a value before a title or term that equals it.
    @Test func theExactAnswerComesFirst() {
        let countries = [
            Suggestion("Estonia (EE)", value: "EE", terms: ["EE", "Estland"]),
            Suggestion("Spain (ES)", value: "ES", terms: ["ES", "España"]),
            Suggestion("Chad (TD)", value: "TD", terms: ["TD", "Tchad"]), Suggestion("Switzerland (CH)", value: "CH", terms: ["CH"]),
            Suggestion("Odd (OD)", value: "OD", terms: ["ch"]),
        ]
        #expect(Suggestion.filter(countries, by: "es").first?.value == "ES")
        #expect(Suggestion.filter(countries, by: "ES").first?.isExact("ES") == true)
        #expect(Suggestion.filter(countries, by: "Espana").first?.value == "ES", "a term, accents ignored")
        #expect(Suggestion.filter(countries, by: "ch").map(\.value).prefix(2) == ["CH", "OD"], "a value before a term")
        #expect(Suggestion.filter(countries, by: "est").first?.isExact("est") == false, "a part of a name is no exact answer")
    }

    /// A typed line laid out as a terminal does: the prompt at its words, the answer cut where
    /// a row is full, the cursor where the next character goes.
    @Test func anAnswerWrapsWhereTheRowIsFullAndTheCursorFollows() {
        DisplayWidth.prepare()
        let name = Array("Llanfairpwllgwyngyllgogerychwyrndrob")  // 36 characters
        let end = DisplayWidth.field(prompt: "Which city?", text: name, cursor: name.count, width: 20)
        #expect(end.rows == ["Which city? Llanfair", "pwllgwyngyllgogerych", "wyrndrob"])
        #expect(end.cursor == (2, 8))
        let home = DisplayWidth.field(prompt: "Which city?", text: name, cursor: 0, width: 20)
        #expect(home.cursor == (0, 12), "Home: at the answer's first character, after the prompt")
        let full = DisplayWidth.field(prompt: "Q?", text: Array("abcdefghijklmnopq"), cursor: 17, width: 20)
        #expect(full.rows == ["Q? abcdefghijklmnopq", ""] && full.cursor == (1, 0), "a full row: the cursor on the next")
        let wide = DisplayWidth.field(prompt: "Q?", text: Array("日本語の都市名です"), cursor: 7, width: 10)
        #expect(wide.rows == ["Q? 日本語", "の都市名で", "す"] && wide.cursor == (1, 8), "a wide character that does not fit starts the row")
    }
}
