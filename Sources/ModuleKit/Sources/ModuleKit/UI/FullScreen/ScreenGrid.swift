/// How a cell is drawn. Reverse video marks the selection, so it shows with `NO_COLOR` too;
/// colour is only added where the terminal takes it.
struct CellStyle: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let bold = CellStyle(rawValue: 1)
    static let reverse = CellStyle(rawValue: 2)
    static let dim = CellStyle(rawValue: 4)
    static let red = CellStyle(rawValue: 8)
    static let green = CellStyle(rawValue: 16)

    /// The SGR sequence that sets exactly this style (from a reset).
    func sequence(color: Bool) -> String {
        var codes = ["0"]
        if contains(.bold) { codes.append("1") }
        if contains(.dim) { codes.append("2") }
        if contains(.reverse) { codes.append("7") }
        if color && contains(.red) { codes.append("31") }
        if color && contains(.green) { codes.append("32") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// One character cell of the screen: a character and its style. A wide character's second
/// column is a continuation, drawn by the character before it.
struct Cell: Equatable, Sendable {
    var character: Character = " "
    var style: CellStyle = []
    var isContinuation = false
}

/// The whole screen as cells, row by row: what a frame draws, compared with the last one so
/// that only changed cells are written.
struct ScreenGrid: Equatable, Sendable {
    let rows: Int
    let columns: Int
    private(set) var cells: [Cell]

    init(rows: Int, columns: Int) {
        self.rows = max(rows, 1)
        self.columns = max(columns, 1)
        cells = Array(repeating: Cell(), count: self.rows * self.columns)
    }

    subscript(row: Int, column: Int) -> Cell { cells[row * columns + column] }

    /// Writes `text` from `column` of `row`, cut at the right edge; returns the column after.
    /// Control characters show as `?` (``TerminalText``), so nothing a module prints can move
    /// the cursor or reorder the row.
    @discardableResult
    mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = []) -> Int {
        guard row >= 0, row < rows else { return column }
        var at = max(column, 0)
        for character in text {
            let width = DisplayWidth.of(character)
            if width == 0 { continue }
            guard at + width <= columns else { break }
            let shown = TerminalText.isControl(inCell: character) ? TerminalText.replacement : character
            cells[row * columns + at] = Cell(character: shown, style: style)
            if width == 2 { cells[row * columns + at + 1] = Cell(character: " ", style: style, isContinuation: true) }
            at += width
        }
        return at
    }

    /// Gives `style` to the cells of `row` from `column` to the end (a highlighted row).
    mutating func style(row: Int, from column: Int = 0, to end: Int? = nil, _ style: CellStyle) {
        guard row >= 0, row < rows else { return }
        for index in max(column, 0)..<min(end ?? columns, columns) { cells[row * columns + index].style = style }
    }
}

/// The bytes that turn the screen from one grid into the next: only the changed cells, each
/// run reached by one cursor move, a style written only when it changes.
enum ScreenRenderer {
    static func bytes(from old: ScreenGrid?, to new: ScreenGrid, cursor: (row: Int, column: Int)?, color: Bool) -> String {
        var out = ""
        let repaint = old == nil || old?.rows != new.rows || old?.columns != new.columns
        if repaint { out += "\u{1B}[0m\u{1B}[H\u{1B}[2J" }
        var style: CellStyle? = repaint ? [] : nil
        var position: (row: Int, column: Int)? = repaint ? (0, 0) : nil
        for row in 0..<new.rows {
            for column in 0..<new.columns {
                let cell = new[row, column]
                if cell.isContinuation { continue }
                let changed: Bool
                if let old, !repaint {
                    changed = old[row, column] != cell || (column + 1 < new.columns && old[row, column + 1] != new[row, column + 1])
                } else {
                    changed = cell != Cell()
                }
                guard changed else { continue }
                if position.map({ $0.row != row || $0.column != column }) ?? true {
                    out += "\u{1B}[\(row + 1);\(column + 1)H"
                }
                if style != cell.style {
                    out += cell.style.sequence(color: color)
                    style = cell.style
                }
                out.append(cell.character)
                position = (row, column + DisplayWidth.of(cell.character))
            }
        }
        if style != [] && style != nil { out += "\u{1B}[0m" }
        // The cursor shows only where a person types.
        if let cursor { out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H" }
        return out
    }
}
