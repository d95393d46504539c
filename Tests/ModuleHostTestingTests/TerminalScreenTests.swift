import ModuleHostTesting
import Testing

/// The screen model on its own: each control sequence does what a terminal does with it.
@Suite struct TerminalScreenTests {
    func screen(_ bytes: String, rows: Int = 5, columns: Int = 10) -> TerminalScreen {
        var screen = TerminalScreen(rows: rows, columns: columns)
        screen.feed(bytes)
        return screen
    }

    @Test func textGoesWhereTheCursorIs() {
        let shown = screen("ab\r\ncd\u{1B}[3;4Hxy\u{1B}[1;1Hz")
        #expect(shown.lines == ["zb", "cd", "   xy", "", ""])
        #expect(shown.cursor == (0, 1))
    }

    @Test func aFullLineWrapsOnlyWhenMoreComes() {
        let exact = screen("0123456789")
        #expect(exact.lines.prefix(2) == ["0123456789", ""])
        #expect(exact.cursor == (0, 9))
        #expect(screen("0123456789\r\nx").lines.prefix(2) == ["0123456789", "x"])
        #expect(screen("0123456789x").lines.prefix(2) == ["0123456789", "x"])
    }

    @Test func linesScrollOffIntoTheTranscript() {
        let shown = screen((1...7).map { "line \($0)" }.joined(separator: "\r\n"))
        #expect(shown.lines == ["line 3", "line 4", "line 5", "line 6", "line 7"])
        #expect(shown.scrollback == ["line 1", "line 2"])
        #expect(shown.transcript.hasPrefix("line 1\nline 2\nline 3"))
    }

    @Test func erasing() {
        #expect(screen("abcdef\u{1B}[1;3H\u{1B}[K").lines[0] == "ab")
        #expect(screen("abcdef\u{1B}[1;3H\u{1B}[1K").lines[0] == "   def")
        #expect(screen("abc\r\ndef\u{1B}[2J").text == "")
        #expect(screen("abc\r\ndef\u{1B}[1;2H\u{1B}[J").text == "a")
        #expect(screen("abcdef\u{1B}[1;2H\u{1B}[2X").lines[0] == "a  def")
    }

    @Test func insertingAndDeleting() {
        #expect(screen("abcdef\u{1B}[1;2H\u{1B}[2@").lines[0] == "a  bcdef")
        #expect(screen("abcdef\u{1B}[1;2H\u{1B}[2P").lines[0] == "adef")
        #expect(screen("1\r\n2\r\n3\u{1B}[2;1H\u{1B}[L").lines.prefix(4) == ["1", "", "2", "3"])
        #expect(screen("1\r\n2\r\n3\u{1B}[1;1H\u{1B}[M").lines.prefix(3) == ["2", "3", ""])
    }

    @Test func aScrollRegionScrollsAlone() {
        let shown = screen("top\u{1B}[2;4r\u{1B}[4;1Hw\r\nx\r\ny\r\nz\u{1B}[5;1Hbottom")
        #expect(shown.lines == ["top", "x", "y", "z", "bottom"])
        #expect(shown.scrollback.isEmpty, "a region below the top row keeps nothing")
    }

    @Test func theAlternateScreenComesAndGoes() {
        var shown = screen("main", columns: 20)
        shown.feed("\u{1B}[?1049h\u{1B}[Hfull screen")
        #expect(shown.isAlternate && shown.lines[0] == "full screen")
        shown.feed("\u{1B}[?1049l")
        #expect(!shown.isAlternate && shown.lines[0] == "main")
        #expect(shown.cursor == (0, 4))
    }

    @Test func attributesShowASelection() {
        let shown = screen("  one\r\n\u{1B}[7m> two\u{1B}[0m\r\n  three", columns: 20)
        #expect(shown.attributes(of: "two")?.contains(.reverse) == true)
        #expect(shown.attributes(of: "one") == [])
        #expect(shown.highlightedLines == ["> two"])
        #expect(shown.attributes(of: "nowhere") == nil)
    }

    @Test func unknownSequencesAreNeverText() {
        let shown = screen("\u{1B}]0;a title\u{07}\u{1B}[?2004hok\u{1B}[>4;1m\u{1B}(B\u{1B}[38;5;196mred\u{1B}[0m", columns: 20)
        #expect(shown.lines[0] == "okred")
        #expect(shown.attributes(of: "red")?.contains(.colored) == true)
    }

    @Test func wideAndCombiningCharacters() {
        let shown = screen("日本e\u{301}x", columns: 10)
        #expect(shown.lines[0] == "日本éx")
        #expect(shown.cursor == (0, 6))
        #expect(shown.cell(row: 0, column: 1)?.character == "")
    }

    @Test func tabsAndBackspace() {
        #expect(screen("a\tb", columns: 20).lines[0] == "a       b")
        #expect(screen("ab\u{08}c").lines[0] == "ac")
    }

    @Test func aResizeKeepsTheTopLeftAndTheCursorRow() {
        var shown = screen("1\r\n2\r\n3\r\n4\r\n5")
        shown.resize(rows: 3, columns: 4)
        #expect(shown.lines == ["3", "4", "5"])
        #expect(shown.cursor.row == 2)
        #expect(shown.scrollback == ["1", "2"])
        shown.resize(rows: 4, columns: 8)
        #expect(shown.lines == ["3", "4", "5", ""])
    }
}
