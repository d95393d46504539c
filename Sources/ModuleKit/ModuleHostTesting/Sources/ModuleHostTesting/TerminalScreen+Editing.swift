/// How the screen model puts characters, moves the cursor, scrolls, inserts, erases and stores cells.
extension TerminalScreen {
    mutating func put(_ scalar: Unicode.Scalar) {
        // A combining mark joins the character before it.
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark
            || scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
        {
            let (row, column) = pendingWrap ? (cursor.row, cursor.column) : (cursor.row, max(0, cursor.column - 1))
            var cell = grid[row][column]
            cell.character.unicodeScalars.append(scalar)
            setCell(row, column, cell)
            return
        }
        let width = Self.isWide(scalar) ? 2 : 1
        if pendingWrap || cursor.column + width > columns {
            if autowrap {
                cursor.column = 0
                lineFeed()
            } else {
                cursor.column = columns - width
            }
            pendingWrap = false
        }
        setCell(cursor.row, cursor.column, Cell(character: String(Character(scalar)), attributes: attributes))
        if width == 2 { setCell(cursor.row, cursor.column + 1, Cell(character: "", attributes: attributes)) }
        if cursor.column + width >= columns {
            cursor.column = columns - 1
            pendingWrap = true
        } else {
            cursor.column += width
        }
    }

    /// East Asian wide and full-width characters, and emoji presentation: two columns.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    // MARK: Moving and scrolling

    mutating func moveTo(row: Int, column: Int) {
        pendingWrap = false
        cursor.row = min(max(0, row), rows - 1)
        cursor.column = min(max(0, column), columns - 1)
    }

    mutating func lineFeed() {
        pendingWrap = false
        if cursor.row == scrollBottom {
            scrollUp(1)
        } else if cursor.row < rows - 1 {
            cursor.row += 1
        }
    }

    mutating func reverseLineFeed() {
        pendingWrap = false
        if cursor.row == scrollTop {
            scrollDown(1)
        } else if cursor.row > 0 {
            cursor.row -= 1
        }
    }

    mutating func scrollUp(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        var grid = self.grid
        let gone = grid[scrollTop..<(scrollTop + count)]
        if !isAlternate && scrollTop == 0 { scrollback += gone.map(Self.text(of:)) }
        grid.removeSubrange(scrollTop..<(scrollTop + count))
        grid.insert(contentsOf: Array(repeating: Self.blankRow(columns), count: count), at: scrollBottom - count + 1)
        setGrid(grid)
    }

    mutating func scrollDown(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        var grid = self.grid
        grid.removeSubrange((scrollBottom - count + 1)...scrollBottom)
        grid.insert(contentsOf: Array(repeating: Self.blankRow(columns), count: count), at: scrollTop)
        setGrid(grid)
    }

    mutating func insertLines(_ count: Int) {
        guard (scrollTop...scrollBottom).contains(cursor.row) else { return }
        let (top, saved) = (scrollTop, cursor.row)
        scrollTop = saved
        scrollDown(count)
        scrollTop = top
        cursor.column = 0
        pendingWrap = false
    }

    mutating func deleteLines(_ count: Int) {
        guard (scrollTop...scrollBottom).contains(cursor.row) else { return }
        let top = scrollTop
        scrollTop = cursor.row
        // Lines deleted inside the screen never reach the scrollback.
        var grid = self.grid
        let count = min(count, scrollBottom - scrollTop + 1)
        grid.removeSubrange(scrollTop..<(scrollTop + count))
        grid.insert(contentsOf: Array(repeating: Self.blankRow(columns), count: count), at: scrollBottom - count + 1)
        setGrid(grid)
        scrollTop = top
        cursor.column = 0
        pendingWrap = false
    }

    mutating func insertCharacters(_ count: Int) {
        pendingWrap = false
        var row = grid[cursor.row]
        row.insert(contentsOf: Array(repeating: Cell(), count: count), at: cursor.column)
        setRow(cursor.row, Array(row.prefix(columns)))
    }

    mutating func deleteCharacters(_ count: Int) {
        pendingWrap = false
        var row = grid[cursor.row]
        row.removeSubrange(cursor.column..<min(columns, cursor.column + count))
        setRow(cursor.row, row + Array(repeating: Cell(), count: columns - row.count))
    }

    mutating func eraseInDisplay(_ mode: Int) {
        pendingWrap = false
        switch mode {
        case 0:
            eraseInLine(0)
            for row in (cursor.row + 1)..<rows { setRow(row, Self.blankRow(columns)) }
        case 1:
            eraseInLine(1)
            for row in 0..<cursor.row { setRow(row, Self.blankRow(columns)) }
        case 2, 3:
            setGrid(Self.blank(rows: rows, columns: columns))
            if mode == 3 && !isAlternate { scrollback.removeAll() }
        default: break
        }
    }

    mutating func eraseInLine(_ mode: Int) {
        pendingWrap = false
        let range: Range<Int>
        switch mode {
        case 0: range = cursor.column..<columns
        case 1: range = 0..<(cursor.column + 1)
        case 2: range = 0..<columns
        default: return
        }
        for column in range { setCell(cursor.row, column, Cell()) }
    }

    mutating func saveCursor() {
        savedCursor = (cursor.row, cursor.column, attributes)
    }

    mutating func restoreCursor() {
        moveTo(row: savedCursor.row, column: savedCursor.column)
        attributes = savedCursor.attributes
    }

    mutating func reset() {
        self = TerminalScreen(rows: rows, columns: columns)
    }

    // MARK: Storage

    mutating func setCell(_ row: Int, _ column: Int, _ cell: Cell) {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
        if isAlternate { alternate[row][column] = cell } else { main[row][column] = cell }
    }

    mutating func setRow(_ row: Int, _ cells: [Cell]) {
        if isAlternate { alternate[row] = cells } else { main[row] = cells }
    }

    mutating func setGrid(_ grid: [[Cell]]) {
        if isAlternate { alternate = grid } else { main = grid }
    }

    static func blankRow(_ columns: Int) -> [Cell] { Array(repeating: Cell(), count: columns) }

    static func blank(rows: Int, columns: Int) -> [[Cell]] {
        Array(repeating: blankRow(columns), count: rows)
    }

    static func text(of row: [Cell]) -> String {
        var text = row.map(\.character).joined()
        while text.last == " " { text.removeLast() }
        return text
    }

    static func linesOf(_ grid: [[Cell]]) -> [String] { grid.map(text(of:)) }
}
