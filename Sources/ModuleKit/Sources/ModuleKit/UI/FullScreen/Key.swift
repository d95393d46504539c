/// One key a person pressed, decoded from what the terminal sent (xterm's sequences, which
/// tmux, the Linux console and every common terminal send too).
enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl with a letter (`a` for Ctrl-A); Ctrl-C and Ctrl-Z stay signals.
    case control(Character)
    /// A click of the main button or a turn of the wheel, at a cell counted from 0.
    case mouse(Mouse)
    /// Text the terminal marked as pasted (bracketed paste): only a line being typed takes it,
    /// never as keys (a pasted `q` quits nothing); its control characters are shown as `?`.
    case paste(String)
    /// Bytes that make no key this UI knows (a function key, a release): ignored.
    case unknown

    struct Mouse: Equatable, Sendable {
        enum Action: Equatable, Sendable { case click, wheelUp, wheelDown }
        let action: Action
        let row: Int
        let column: Int
    }

    /// Decodes the keys in `bytes`; an incomplete sequence at the end is left in `rest` for
    /// the next read (a lone `ESC` at the end is the Escape key only once no more follows).
    /// `pasting` is whether the bytes begin inside a pasted text, and is left as they end.
    static func decode(_ bytes: [UInt8], escapeIsComplete: Bool, pasting: inout Bool) -> (keys: [Key], rest: [UInt8]) {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            if pasting {
                let scan = Self.pasted(bytes, from: index, escapeIsComplete: escapeIsComplete)
                if !scan.text.isEmpty { keys.append(.paste(scan.text)) }
                index = scan.end
                if scan.needsMore { return (keys, Array(bytes[index...])) }
                pasting = !scan.ended
                continue
            }
            if bytes[index...].starts(with: Self.pasteStart) {
                pasting = true
                index += Self.pasteStart.count
                continue
            }
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                guard index + 1 < bytes.count else {
                    if escapeIsComplete {
                        keys.append(.escape)
                        index += 1
                        continue
                    }
                    return (keys, Array(bytes[index...]))
                }
                let next = bytes[index + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    // ESC then a key: Alt with it; taken as Escape, then that key.
                    keys.append(.escape)
                    index += 1
                    continue
                }
                // The old X10 mouse form, `CSI M` and three bytes (32 + button, column, row),
                // from terminals without the SGR form: never read as typed characters.
                if next == UInt8(ascii: "["), index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: "M") {
                    guard index + 5 < bytes.count else { return (keys, Array(bytes[index...])) }
                    let (button, column, row) = (Int(bytes[index + 3]) - 32, Int(bytes[index + 4]) - 32, Int(bytes[index + 5]) - 32)
                    // Button 3 is X10's release, of whichever button.
                    if let key = Self.mouse(button: button, row: row, column: column, released: button & 3 == 3) { keys.append(key) }
                    index += 6
                    continue
                }
                // CSI or SS3: parameters (digits, ';') then one final byte.
                var end = index + 2
                while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
                guard end < bytes.count else { return (keys, Array(bytes[index...])) }
                let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
                // A mouse button's release means nothing here: no key at all (an unknown key
                // would still end the feedback line's time on screen).
                if let key = Self.sequence(final: bytes[end], parameters: parameters) { keys.append(key) }
                index = end + 1
            case 0x0D, 0x0A: keys.append(.enter); index += 1
            case 0x09: keys.append(.tab); index += 1
            case 0x7F, 0x08: keys.append(.backspace); index += 1
            case 0x01...0x1A:
                keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
                index += 1
            case 0x00...0x1F:
                keys.append(.unknown)
                index += 1
            default:
                // One UTF-8 character: its length from the lead byte.
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= bytes.count else { return (keys, Array(bytes[index...])) }
                let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                keys.append(text.first.map(Key.character) ?? .unknown)
                index += length
            }
        }
        return (keys, [])
    }

    /// ``decode(_:escapeIsComplete:pasting:)`` of bytes that do not begin inside a paste.
    static func decode(_ bytes: [UInt8], escapeIsComplete: Bool) -> (keys: [Key], rest: [UInt8]) {
        var pasting = false
        return decode(bytes, escapeIsComplete: escapeIsComplete, pasting: &pasting)
    }

    /// What a terminal sends around pasted text once asked to (mode 2004).
    static let pasteStart = Array("\u{1B}[200~".utf8)
    static let pasteEnd = Array("\u{1B}[201~".utf8)

    /// The pasted text from `start` up to the paste's end (`ended`, `end` past its marker), or
    /// to the end of `bytes`; `needsMore` when they end in what may be half of the end marker
    /// or of a character, left for the next read unless none follows (`escapeIsComplete`).
    private static func pasted(_ bytes: [UInt8], from start: Int, escapeIsComplete: Bool)
        -> (text: String, end: Int, ended: Bool, needsMore: Bool)
    {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x1B, bytes[index...].starts(with: pasteEnd) {
                return (shownAsPasted(bytes[start..<index], ending: true), index + pasteEnd.count, true, false)
            }
            index += 1
        }
        // Half of the end marker, or of a character, at the end: the rest follows.
        if !escapeIsComplete {
            let tail = max(start, bytes.count - pasteEnd.count + 1)
            if let cut = (tail..<bytes.count).first(where: { pasteEnd.starts(with: bytes[$0...]) }) {
                return (shownAsPasted(bytes[start..<cut], ending: false), cut, false, true)
            }
            // The last lead byte among the last three, and whether its character is whole.
            if let cut = (max(start, bytes.count - 3)..<bytes.count).last(where: { bytes[$0] >= 0xC0 }),
                bytes.count - cut < (bytes[cut] >= 0xF0 ? 4 : bytes[cut] >= 0xE0 ? 3 : 2)
            {
                return (shownAsPasted(bytes[start..<cut], ending: false), cut, false, true)
            }
        }
        return (shownAsPasted(bytes[start...], ending: false), bytes.count, false, false)
    }

    /// Pasted bytes as text to insert: at the paste's end (`ending`) its line breaks dropped
    /// (a copied line carries its own), every other control character shown (a break or a tab
    /// as a space, the rest as `?`), never obeyed.
    private static func shownAsPasted(_ bytes: ArraySlice<UInt8>, ending: Bool) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        while ending, let last = text.unicodeScalars.last, last == "\n" || last == "\r" { text.unicodeScalars.removeLast() }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                shown.append(" ")
            } else {
                shown.append(TerminalText.isControl(scalar) ? "?" : scalar)
            }
        }
        return String(shown)
    }

    private static func sequence(final: UInt8, parameters: String) -> Key? {
        if parameters.hasPrefix("<") { return mouse(final: final, parameters: parameters.dropFirst()) }
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return .unknown
            }
        default: return .unknown
        }
    }

    /// An SGR mouse report, `CSI < button ; column ; row M` (`m`: a release), the column and
    /// row from 1: `nil` for a release, which means nothing here.
    private static func mouse(final: UInt8, parameters: Substring) -> Key? {
        let numbers = parameters.split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3 else { return .unknown }
        return mouse(button: numbers[0], row: numbers[2], column: numbers[1], released: final == UInt8(ascii: "m"))
    }

    /// A mouse report's button (its low bits name the button; 4, 8, 16 are Shift, Meta, Ctrl;
    /// 32 is a drag) at `row`, `column` counted from 1. Only a press of the main button and
    /// the wheel mean something here; `nil` for a release.
    private static func mouse(button: Int, row: Int, column: Int, released: Bool) -> Key? {
        if released { return nil }
        guard row >= 1, column >= 1 else { return .unknown }
        let action: Mouse.Action
        switch button & ~(4 | 8 | 16) {
        case 0: action = .click
        case 64: action = .wheelUp
        case 65: action = .wheelDown
        default: return .unknown
        }
        return .mouse(Mouse(action: action, row: row - 1, column: column - 1))
    }

    /// The bytes a terminal sends for this key, which ``decode(_:escapeIsComplete:)`` reads
    /// back as it: how keys typed ahead go to the next reader of the terminal. None for a
    /// mouse event (it points at the screen it was made on) or a key this UI does not know.
    var typedBytes: [UInt8] {
        switch self {
        case .character(let character): Array(String(character).utf8)
        case .enter: [0x0D]
        case .tab: [0x09]
        case .backspace: [0x7F]
        case .delete: Array("\u{1B}[3~".utf8)
        case .escape: [0x1B]
        case .up: Array("\u{1B}[A".utf8)
        case .down: Array("\u{1B}[B".utf8)
        case .right: Array("\u{1B}[C".utf8)
        case .left: Array("\u{1B}[D".utf8)
        case .home: Array("\u{1B}[H".utf8)
        case .end: Array("\u{1B}[F".utf8)
        case .pageUp: Array("\u{1B}[5~".utf8)
        case .pageDown: Array("\u{1B}[6~".utf8)
        case .control(let letter): letter.asciiValue.map { [$0 & 0x1F] } ?? []
        case .paste(let text): Key.pasteStart + Array(text.utf8) + Key.pasteEnd
        case .mouse, .unknown: []
        }
    }
}
