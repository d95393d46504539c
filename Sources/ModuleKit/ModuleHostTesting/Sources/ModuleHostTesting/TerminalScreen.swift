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

    public internal(set) var rows: Int
    public internal(set) var columns: Int
    /// Where the next character goes, from 0.
    public internal(set) var cursor: (row: Int, column: Int) = (0, 0)
    /// Whether the program switched to the alternate screen (full-screen programs do).
    public internal(set) var isAlternate = false
    /// Whether the program hid the cursor.
    public internal(set) var cursorHidden = false
    /// Whether the program asked for mouse reports (xterm's modes 1000, 1002 or 1003): then
    /// a click is sent to it, not used by the terminal to select text.
    public internal(set) var reportsMouse = false
    /// Lines that scrolled off the top of the main screen, oldest first.
    public internal(set) var scrollback: [String] = []

    var main: [[Cell]]
    var alternate: [[Cell]]
    var savedCursor: (row: Int, column: Int, attributes: Attributes) = (0, 0, [])
    var savedMainCursor: (row: Int, column: Int, attributes: Attributes) = (0, 0, [])
    var scrollTop = 0
    var scrollBottom: Int
    var autowrap = true
    /// The cursor stands past the last column: the next character wraps first.
    var pendingWrap = false
    var attributes: Attributes = []
    var parser = Parser.ground
    var utf8: [UInt8] = []

    enum Parser: Sendable {
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

    var grid: [[Cell]] { isAlternate ? alternate : main }

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

    mutating func feed(_ byte: UInt8) {
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

    mutating func ground(_ byte: UInt8) {
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

    mutating func control(_ byte: UInt8) {
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

    mutating func escape(_ byte: UInt8) {
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
}
