/// The grid of characters a terminal shows, made from the bytes a program writes to it: what a
/// person sees, after cursor moves, erasing, scrolling, the alternate screen and attributes.
///
/// It understands the control sequences of an xterm-compatible terminal that full-screen and
/// line-by-line programs use (the subset `tmux` and `xterm` agree on); anything else is read
/// and ignored, never shown as text. Feed it what a program wrote with ``feed(_:)``; read
/// ``lines``, ``text`` or ``transcript``, and ``attributes(of:)`` for a highlighted selection.
public struct TerminalScreen: Sendable, CustomStringConvertible {
    /// How a character is drawn.
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let italic = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
        /// Foreground and background swapped: how a selection is usually shown.
        public static let reverse = Attributes(rawValue: 1 << 4)
        public static let hidden = Attributes(rawValue: 1 << 5)
        /// Any foreground or background colour but the default.
        public static let colored = Attributes(rawValue: 1 << 6)
    }

    /// One position of the grid.
    public struct Cell: Sendable, Equatable {
        /// What is drawn there; `" "` when nothing is. The right half of a wide character is
        /// an empty string.
        public internal(set) var character: String = " "
        public internal(set) var attributes: Attributes = []
    }

    public private(set) var rows: Int
    public private(set) var columns: Int
    /// Where the next character goes, from 0.
    public private(set) var cursor: (row: Int, column: Int) = (0, 0)
    /// Whether the program switched to the alternate screen (full-screen programs do).
    public private(set) var isAlternate = false
    /// Whether the program hid the cursor.
    public private(set) var cursorHidden = false
    /// Whether the program asked for mouse reports (xterm's modes 1000, 1002 or 1003): then
    /// a click is sent to it, not used by the terminal to select text.
    public private(set) var reportsMouse = false
    /// Lines that scrolled off the top of the main screen, oldest first.
    public private(set) var scrollback: [String] = []

    private var main: [[Cell]]
    private var alternate: [[Cell]]
    private var savedCursor: (row: Int, column: Int, attributes: Attributes) = (0, 0, [])
    private var savedMainCursor: (row: Int, column: Int, attributes: Attributes) = (0, 0, [])
    private var scrollTop = 0
    private var scrollBottom: Int
    private var autowrap = true
    /// The cursor stands past the last column: the next character wraps first.
    private var pendingWrap = false
    private var attributes: Attributes = []
    private var parser = Parser.ground
    private var utf8: [UInt8] = []

    private enum Parser: Sendable {
        case ground
        case escape
        /// After `ESC (` and the like: one byte names a character set.
        case charset
        case csi(parameters: [UInt8], intermediates: [UInt8])
        /// An operating-system command or device control string, until BEL or `ESC \`.
        case string(escape: Bool)
    }

    public init(rows: Int = 24, columns: Int = 80) {
        self.rows = max(1, rows)
        self.columns = max(1, columns)
        main = Self.blank(rows: self.rows, columns: self.columns)
        alternate = main
        scrollBottom = self.rows - 1
    }

    // MARK: - Reading

    /// Each row as text, without trailing blanks.
    public var lines: [String] {
        grid.map(Self.text(of:))
    }

    /// The rows as one text, without trailing blank rows.
    public var text: String {
        var rows = lines
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows.joined(separator: "\n")
    }

    /// Everything the main screen showed, the lines that scrolled off first: what a person
    /// could scroll back through in line mode.
    public var transcript: String {
        var rows = (isAlternate ? [] : scrollback) + (isAlternate ? Self.linesOf(main) : lines)
        while rows.last?.isEmpty == true { rows.removeLast() }
        return rows.joined(separator: "\n")
    }

    public var description: String { text }

    /// Whether the screen shows `text` on one row.
    public func contains(_ text: String) -> Bool {
        lines.contains { $0.contains(text) }
    }

    /// The cell at `row`, `column` (from 0).
    public func cell(row: Int, column: Int) -> Cell? {
        guard grid.indices.contains(row), grid[row].indices.contains(column) else { return nil }
        return grid[row][column]
    }

    /// The attributes `text` is drawn with where it first appears (those of its first
    /// character), or `nil` when the screen does not show it.
    public func attributes(of text: String) -> Attributes? {
        for row in grid {
            let characters = row.map(\.character)
            let line = characters.joined()
            guard let range = line.range(of: text) else { continue }
            // The column of the match: count cells up to its start.
            var offset = line.distance(from: line.startIndex, to: range.lowerBound)
            for cell in row {
                if offset == 0 { return cell.attributes }
                offset -= cell.character.count
            }
        }
        return nil
    }

    /// The number a menu shows before `title` (`  3. Places` → `"3"`), to choose it by typing.
    public func menuNumber(of title: String) -> String? {
        for line in lines {
            let trimmed = line.drop { $0 == " " }
            let number = trimmed.prefix { $0.isNumber }
            guard !number.isEmpty, trimmed.dropFirst(number.count).hasPrefix(". ") else { continue }
            if trimmed.dropFirst(number.count + 2).hasPrefix(title) { return String(number) }
        }
        return nil
    }

    /// The rows drawn in reverse video somewhere: a highlighted selection.
    public var highlightedLines: [String] {
        grid.filter { $0.contains { $0.attributes.contains(.reverse) && $0.character != " " } }.map(Self.text(of:))
    }

    private var grid: [[Cell]] { isAlternate ? alternate : main }

    // MARK: - Writing

    /// Interprets `bytes` as a terminal does.
    public mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { feed(byte) }
    }

    /// Interprets `text`'s UTF-8 bytes.
    public mutating func feed(_ text: String) { feed(Array(text.utf8)) }

    /// The terminal is now `rows` by `columns`: the content keeps its top-left corner.
    public mutating func resize(rows newRows: Int, columns newColumns: Int) {
        let (newRows, newColumns) = (max(1, newRows), max(1, newColumns))
        func fit(_ grid: [[Cell]]) -> [[Cell]] {
            var grid = grid
            // A shorter main screen keeps its bottom rows, as terminals do: the top ones
            // scroll off.
            if grid.count > newRows {
                let extra = grid.count - newRows
                let keepFromBottom = max(0, min(extra, grid.count - 1 - cursor.row))
                let dropTop = extra - keepFromBottom
                grid.removeFirst(dropTop)
                grid.removeLast(keepFromBottom)
            }
            while grid.count < newRows { grid.append(Self.blankRow(newColumns)) }
            return grid.map { row in
                row.count >= newColumns
                    ? Array(row.prefix(newColumns)) : row + Array(repeating: Cell(), count: newColumns - row.count)
            }
        }
        let dropped = max(0, rows - newRows - max(0, rows - 1 - cursor.row))
        if !isAlternate && dropped > 0 { scrollback += main.prefix(dropped).map(Self.text(of:)) }
        main = fit(main)
        alternate = fit(alternate)
        cursor.row = min(max(0, cursor.row - dropped), newRows - 1)
        cursor.column = min(cursor.column, newColumns - 1)
        rows = newRows
        columns = newColumns
        scrollTop = 0
        scrollBottom = newRows - 1
        pendingWrap = false
    }

    private mutating func feed(_ byte: UInt8) {
        switch parser {
        case .ground:
            ground(byte)
        case .escape:
            escape(byte)
        case .charset:
            parser = .ground
        case .csi(var parameters, var intermediates):
            switch byte {
            case 0x30...0x3F:
                parameters.append(byte)
                parser = .csi(parameters: parameters, intermediates: intermediates)
            case 0x20...0x2F:
                intermediates.append(byte)
                parser = .csi(parameters: parameters, intermediates: intermediates)
            case 0x40...0x7E:
                parser = .ground
                controlSequence(byte, parameters: parameters, intermediates: intermediates)
            case 0x18, 0x1A:
                parser = .ground
            case 0x1B:
                parser = .escape
            default:
                // C0 controls inside a sequence act at once, as on a real terminal.
                control(byte)
            }
        case .string(let sawEscape):
            if byte == 0x07 || (sawEscape && byte == UInt8(ascii: "\\")) {
                parser = .ground
            } else {
                parser = .string(escape: byte == 0x1B)
            }
        }
    }

    private mutating func ground(_ byte: UInt8) {
        if byte == 0x1B {
            utf8.removeAll()
            parser = .escape
            return
        }
        if byte < 0x20 || byte == 0x7F {
            utf8.removeAll()
            control(byte)
            return
        }
        utf8.append(byte)
        // A whole UTF-8 sequence, by its lead byte's length.
        guard let lead = utf8.first else { return }
        let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard utf8.count >= length else { return }
        let scalars = String(decoding: utf8, as: UTF8.self).unicodeScalars
        utf8.removeAll()
        for scalar in scalars { put(scalar) }
    }

    private mutating func control(_ byte: UInt8) {
        switch byte {
        case 0x08:  // BS
            pendingWrap = false
            cursor.column = max(0, cursor.column - 1)
        case 0x09:  // TAB: the next stop, every 8 columns
            pendingWrap = false
            cursor.column = min(columns - 1, (cursor.column / 8 + 1) * 8)
        case 0x0A, 0x0B, 0x0C:  // LF, VT, FF
            lineFeed()
        case 0x0D:  // CR
            pendingWrap = false
            cursor.column = 0
        default:
            break
        }
    }

    private mutating func escape(_ byte: UInt8) {
        parser = .ground
        switch byte {
        case UInt8(ascii: "["): parser = .csi(parameters: [], intermediates: [])
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "^"), UInt8(ascii: "_"):
            parser = .string(escape: false)
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "%"):
            parser = .charset
        case UInt8(ascii: "7"): saveCursor()
        case UInt8(ascii: "8"): restoreCursor()
        case UInt8(ascii: "D"): lineFeed()
        case UInt8(ascii: "E"):
            cursor.column = 0
            lineFeed()
        case UInt8(ascii: "M"): reverseLineFeed()
        case UInt8(ascii: "c"): reset()
        default: break
        }
    }

    // MARK: Control sequences

    private mutating func controlSequence(_ final: UInt8, parameters raw: [UInt8], intermediates: [UInt8]) {
        let isPrivate = raw.first.map { (0x3C...0x3F).contains($0) } ?? false
        let digits = isPrivate ? Array(raw.dropFirst()) : raw
        let numbers = String(decoding: digits, as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false).map {
            Int($0.prefix { $0 != ":" }) ?? 0
        }
        func parameter(_ index: Int, default value: Int = 1) -> Int {
            index < numbers.count && numbers[index] != 0 ? numbers[index] : value
        }
        guard intermediates.isEmpty else { return }
        if isPrivate {
            if final == UInt8(ascii: "h") || final == UInt8(ascii: "l") {
                for mode in numbers { setPrivateMode(mode, on: final == UInt8(ascii: "h")) }
            }
            return
        }
        switch final {
        case UInt8(ascii: "A"): moveTo(row: max(cursor.row - parameter(0), cursor.row >= scrollTop ? scrollTop : 0), column: cursor.column)
        case UInt8(ascii: "B"), UInt8(ascii: "e"):
            moveTo(row: min(cursor.row + parameter(0), cursor.row <= scrollBottom ? scrollBottom : rows - 1), column: cursor.column)
        case UInt8(ascii: "C"), UInt8(ascii: "a"): moveTo(row: cursor.row, column: cursor.column + parameter(0))
        case UInt8(ascii: "D"): moveTo(row: cursor.row, column: cursor.column - parameter(0))
        case UInt8(ascii: "E"): moveTo(row: min(cursor.row + parameter(0), scrollBottom), column: 0)
        case UInt8(ascii: "F"): moveTo(row: max(cursor.row - parameter(0), scrollTop), column: 0)
        case UInt8(ascii: "G"), UInt8(ascii: "`"): moveTo(row: cursor.row, column: parameter(0) - 1)
        case UInt8(ascii: "d"): moveTo(row: parameter(0) - 1, column: cursor.column)
        case UInt8(ascii: "H"), UInt8(ascii: "f"): moveTo(row: parameter(0) - 1, column: parameter(1) - 1)
        case UInt8(ascii: "J"): eraseInDisplay(numbers.first ?? 0)
        case UInt8(ascii: "K"): eraseInLine(numbers.first ?? 0)
        case UInt8(ascii: "X"):
            pendingWrap = false
            for column in cursor.column..<min(columns, cursor.column + parameter(0)) { setCell(cursor.row, column, Cell()) }
        case UInt8(ascii: "@"): insertCharacters(parameter(0))
        case UInt8(ascii: "P"): deleteCharacters(parameter(0))
        case UInt8(ascii: "L"): insertLines(parameter(0))
        case UInt8(ascii: "M"): deleteLines(parameter(0))
        case UInt8(ascii: "S"): scrollUp(parameter(0))
        case UInt8(ascii: "T"): scrollDown(parameter(0))
        case UInt8(ascii: "r"):
            let top = parameter(0) - 1
            let bottom = min(parameter(1, default: rows), rows) - 1
            if top < bottom {
                (scrollTop, scrollBottom) = (top, bottom)
                moveTo(row: 0, column: 0)
            }
        case UInt8(ascii: "m"): selectGraphicRendition(digits.isEmpty ? [0] : numbers)
        case UInt8(ascii: "s"): saveCursor()
        case UInt8(ascii: "u"): restoreCursor()
        default: break
        }
    }

    private mutating func setPrivateMode(_ mode: Int, on: Bool) {
        switch mode {
        case 7: autowrap = on
        case 25: cursorHidden = !on
        case 1000, 1002, 1003: reportsMouse = on
        case 47, 1047:
            switchScreen(alternate: on, clear: false)
        case 1049:
            if on {
                savedMainCursor = (cursor.row, cursor.column, attributes)
                switchScreen(alternate: true, clear: true)
            } else {
                switchScreen(alternate: false, clear: false)
                (cursor.row, cursor.column, attributes) = savedMainCursor
            }
        default: break
        }
    }

    private mutating func switchScreen(alternate on: Bool, clear: Bool) {
        guard on != isAlternate else { return }
        isAlternate = on
        if on && clear { alternate = Self.blank(rows: rows, columns: columns) }
        pendingWrap = false
    }

    private mutating func selectGraphicRendition(_ codes: [Int]) {
        var index = 0
        while index < codes.count {
            let code = codes[index]
            switch code {
            case 0: attributes = []
            case 1: attributes.insert(.bold)
            case 2: attributes.insert(.dim)
            case 3: attributes.insert(.italic)
            case 4: attributes.insert(.underline)
            case 7: attributes.insert(.reverse)
            case 8: attributes.insert(.hidden)
            case 22: attributes.subtract([.bold, .dim])
            case 23: attributes.remove(.italic)
            case 24: attributes.remove(.underline)
            case 27: attributes.remove(.reverse)
            case 28: attributes.remove(.hidden)
            case 30...37, 40...47, 90...97, 100...107: attributes.insert(.colored)
            case 39, 49: attributes.remove(.colored)
            case 38, 48:
                // 38;5;N or 38;2;R;G;B: the colour's own numbers are not codes.
                attributes.insert(.colored)
                index += index + 1 < codes.count && codes[index + 1] == 2 ? 4 : 2
            default: break
            }
            index += 1
        }
    }

    // MARK: Putting characters

    private mutating func put(_ scalar: Unicode.Scalar) {
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

    private mutating func moveTo(row: Int, column: Int) {
        pendingWrap = false
        cursor.row = min(max(0, row), rows - 1)
        cursor.column = min(max(0, column), columns - 1)
    }

    private mutating func lineFeed() {
        pendingWrap = false
        if cursor.row == scrollBottom {
            scrollUp(1)
        } else if cursor.row < rows - 1 {
            cursor.row += 1
        }
    }

    private mutating func reverseLineFeed() {
        pendingWrap = false
        if cursor.row == scrollTop {
            scrollDown(1)
        } else if cursor.row > 0 {
            cursor.row -= 1
        }
    }

    private mutating func scrollUp(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        var grid = self.grid
        let gone = grid[scrollTop..<(scrollTop + count)]
        if !isAlternate && scrollTop == 0 { scrollback += gone.map(Self.text(of:)) }
        grid.removeSubrange(scrollTop..<(scrollTop + count))
        grid.insert(contentsOf: Array(repeating: Self.blankRow(columns), count: count), at: scrollBottom - count + 1)
        setGrid(grid)
    }

    private mutating func scrollDown(_ count: Int) {
        let count = min(count, scrollBottom - scrollTop + 1)
        var grid = self.grid
        grid.removeSubrange((scrollBottom - count + 1)...scrollBottom)
        grid.insert(contentsOf: Array(repeating: Self.blankRow(columns), count: count), at: scrollTop)
        setGrid(grid)
    }

    private mutating func insertLines(_ count: Int) {
        guard (scrollTop...scrollBottom).contains(cursor.row) else { return }
        let (top, saved) = (scrollTop, cursor.row)
        scrollTop = saved
        scrollDown(count)
        scrollTop = top
        cursor.column = 0
        pendingWrap = false
    }

    private mutating func deleteLines(_ count: Int) {
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

    private mutating func insertCharacters(_ count: Int) {
        pendingWrap = false
        var row = grid[cursor.row]
        row.insert(contentsOf: Array(repeating: Cell(), count: count), at: cursor.column)
        setRow(cursor.row, Array(row.prefix(columns)))
    }

    private mutating func deleteCharacters(_ count: Int) {
        pendingWrap = false
        var row = grid[cursor.row]
        row.removeSubrange(cursor.column..<min(columns, cursor.column + count))
        setRow(cursor.row, row + Array(repeating: Cell(), count: columns - row.count))
    }

    private mutating func eraseInDisplay(_ mode: Int) {
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

    private mutating func eraseInLine(_ mode: Int) {
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

    private mutating func saveCursor() {
        savedCursor = (cursor.row, cursor.column, attributes)
    }

    private mutating func restoreCursor() {
        moveTo(row: savedCursor.row, column: savedCursor.column)
        attributes = savedCursor.attributes
    }

    private mutating func reset() {
        self = TerminalScreen(rows: rows, columns: columns)
    }

    // MARK: Storage

    private mutating func setCell(_ row: Int, _ column: Int, _ cell: Cell) {
        guard (0..<rows).contains(row), (0..<columns).contains(column) else { return }
        if isAlternate { alternate[row][column] = cell } else { main[row][column] = cell }
    }

    private mutating func setRow(_ row: Int, _ cells: [Cell]) {
        if isAlternate { alternate[row] = cells } else { main[row] = cells }
    }

    private mutating func setGrid(_ grid: [[Cell]]) {
        if isAlternate { alternate = grid } else { main = grid }
    }

    private static func blankRow(_ columns: Int) -> [Cell] { Array(repeating: Cell(), count: columns) }

    private static func blank(rows: Int, columns: Int) -> [[Cell]] {
        Array(repeating: blankRow(columns), count: rows)
    }

    private static func text(of row: [Cell]) -> String {
        var text = row.map(\.character).joined()
        while text.last == " " { text.removeLast() }
        return text
    }

    private static func linesOf(_ grid: [[Cell]]) -> [String] { grid.map(text(of:)) }
}
