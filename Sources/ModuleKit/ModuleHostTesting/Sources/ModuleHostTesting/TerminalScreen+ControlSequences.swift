/// What the screen model does with a control sequence (CSI): modes, the alternate screen, colours.
extension TerminalScreen {
    mutating func controlSequence(_ final: UInt8, parameters raw: [UInt8], intermediates: [UInt8]) {
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

    mutating func setPrivateMode(_ mode: Int, on: Bool) {
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

    mutating func switchScreen(alternate on: Bool, clear: Bool) {
        guard on != isAlternate else { return }
        isAlternate = on
        if on && clear { alternate = Self.blank(rows: rows, columns: columns) }
        pendingWrap = false
    }

    mutating func selectGraphicRendition(_ codes: [Int]) {
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
}
