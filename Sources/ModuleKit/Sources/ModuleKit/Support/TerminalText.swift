/// The one decision of what text may reach a terminal: every character a terminal would obey
/// rather than show is written as `?` (as GNU `ls` does on a terminal), so no text from a
/// server, a file or a module can move the cursor, clear the screen, set the window title,
/// make the terminal answer into the input, or reorder what a line shows.
///
/// The kit's own writers pass all text through it: the line mode and full screen of
/// ``TerminalUI``, ``StandardTerminal/write(_:)``, the logger and standard error; the host's
/// command line does the same. Only the kit's own escape sequences (colour, the full-screen
/// renderer's) are written beside it, never through it. A module that writes to standard
/// output itself (`print`, `write(1, …)`) is not covered: use `context.ui`.
///
/// ```swift
/// TerminalText.visible("\u{1B}]2;pwned\u{7}cats")  // "?]2;pwned?cats"
/// ```
///
/// - Since: SDK 1.6.0.
public enum TerminalText {
    /// What a control character is shown as.
    public static let replacement: Character = "?"

    /// Whether a terminal would act on `scalar` instead of showing it: C0 but newline and tab,
    /// DEL, C1 (U+0080–U+009F), and the bidirectional embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether the cell of a full screen holding `character` would hold something the terminal
    /// obeys: a control character, or a line break or a tab, which have no place in a cell.
    static func isControl(inCell character: Character) -> Bool {
        character.unicodeScalars.contains { isControl($0) || $0 == "\n" || $0 == "\t" }
    }

    /// `text` with each control character (``isControl(_:)``) replaced by ``replacement``;
    /// `text` itself, without a copy, when it has none.
    public static func visible(_ text: String) -> String {
        guard containsControl(text) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) { shown.append(contentsOf: String(replacement).unicodeScalars) } else { shown.append(scalar) }
        }
        return String(shown)
    }

    /// A scalar as Unicode writes it (`U+001B`): how a message names a control character.
    public static func name(of scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Whether `text` holds a control character: one pass over its UTF-8 bytes, for the text
    /// every write carries.
    public static func containsControl(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case 0x0A, 0x09: break
                case 0x00..<0x20, 0x7F: return true
                // C1 is U+0080–U+009F: 0xC2 0x80–0x9F.
                case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]): return true
                // U+202A–U+202E is 0xE2 0x80 0xAA–0xAE; U+2066–U+2069 is 0xE2 0x81 0xA6–0xA9.
                case 0xE2 where index + 2 < bytes.count:
                    let (second, third) = (bytes[index + 1], bytes[index + 2])
                    if second == 0x80 && (0xAA...0xAE).contains(third) || second == 0x81 && (0xA6...0xA9).contains(third) {
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        }
    }
}
