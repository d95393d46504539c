import CTerminal
import Glibc

/// How many terminal columns text takes, by the C library's `wcwidth` (East Asian wide
/// characters take two, combining marks none), and text fitted to a width: wrapped at words,
/// or cut with an ellipsis.
enum DisplayWidth {
    /// Makes `wcwidth` know UTF-8: the process's locale if it is UTF-8, else C.UTF-8.
    /// Only the character type category changes; numbers and messages keep theirs.
    static func prepare() {
        if setlocale(LC_CTYPE, "") == nil || __ctype_get_mb_cur_max() == 1 { setlocale(LC_CTYPE, "C.UTF-8") }
    }

    /// The columns of one character: its first scalar's width, its combining marks none; a
    /// character holding a control character shows as one column (it is drawn as `?`).
    static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if TerminalText.isControl(inCell: character) { return 1 }
        if scalar.isASCII { return 1 }
        let width = modhost_text_width(scalar.value)
        return width < 0 ? 1 : Int(width)
    }

    static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    /// `text` cut to `width` columns, ending in `…` when it was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// An input line laid out as a terminal lays out what is typed: `prompt` wrapped at its
    /// words, a space, then `text` cut into rows of `width` columns wherever a row is full (a
    /// wide character that does not fit starts the next row); and where the character at
    /// `cursor` (an index into `text`; its count: after the end) is drawn, which is where the
    /// next one typed goes.
    static func field(prompt: String, text: [Character], cursor: Int, width: Int) -> (rows: [String], cursor: (row: Int, column: Int)) {
        let width = max(width, 2)
        var rows = wrap(prompt, width: width)
        if rows.isEmpty { rows = [""] }
        var column = of(rows[rows.count - 1])
        if column + 1 > width {
            rows.append("")
            column = 0
        } else {
            rows[rows.count - 1] += " "
            column += 1
        }
        var place = (row: rows.count - 1, column: column)
        for (index, character) in text.enumerated() {
            let columns = of(character)
            if column + columns > width {
                rows.append("")
                column = 0
            }
            if index == cursor { place = (rows.count - 1, column) }
            rows[rows.count - 1].append(character)
            column += columns
        }
        if cursor >= text.count {
            // After the last character: on the next row when this one is full.
            if column >= width {
                rows.append("")
                column = 0
            }
            place = (rows.count - 1, column)
        }
        return (rows, place)
    }

    /// `text` in lines of at most `width` columns, broken at spaces; a word longer than a line
    /// is broken where the line ends. Each newline of `text` starts a line; a wrapped line keeps
    /// the indentation of the first.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = String(paragraph.prefix { $0 == " " })
            let indentWidth = min(of(indent), width / 2)
            var line = ""
            var lineWidth = 0
            func flush() {
                lines.append(line)
                line = String(repeating: " ", count: indentWidth)
                lineWidth = indentWidth
            }
            line = String(repeating: " ", count: indentWidth)
            lineWidth = indentWidth
            let words = paragraph.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false)
            for (index, word) in words.enumerated() {
                let wordWidth = of(String(word))
                let space = index == 0 || lineWidth == indentWidth ? 0 : 1
                if lineWidth + space + wordWidth <= width {
                    if space == 1 { line.append(" ") }
                    line += word
                    lineWidth += space + wordWidth
                    continue
                }
                if lineWidth > indentWidth { flush() }
                // A word longer than a line: broken where each line ends.
                for character in word {
                    let columns = of(character)
                    if lineWidth + columns > width { flush() }
                    line.append(character)
                    lineWidth += columns
                }
            }
            lines.append(line)
        }
        return lines
    }
}
