/// The text of one input line and the cursor in it, edited by keys as a shell does: left and
/// right, Home/End (Ctrl-A/Ctrl-E), Backspace and Delete, Ctrl-U (all before the cursor) and
/// Ctrl-W (the word before it).
struct LineEditor: Equatable {
    private(set) var text: [Character] = []
    /// Where the next character goes, as an index into `text`.
    private(set) var cursor = 0
    /// The longest line kept (as the line mode keeps).
    static let maximumLength = 4_096

    init(_ initial: String = "") {
        text = Array(initial)
        cursor = text.count
    }

    var string: String { String(text) }

    /// Applies `key`; `false` when it is not an editing key.
    mutating func apply(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            guard text.count < Self.maximumLength else { return true }
            text.insert(character, at: cursor)
            cursor += 1
        case .paste(let pasted):
            let taken = Array(pasted.prefix(max(0, Self.maximumLength - text.count)))
            text.insert(contentsOf: taken, at: cursor)
            cursor += taken.count
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = text.count
        case .backspace:
            guard cursor > 0 else { return true }
            text.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < text.count else { return true }
            text.remove(at: cursor)
        case .control("u"):
            text.removeFirst(cursor)
            cursor = 0
        case .control("w"):
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// The columns of the text before the cursor.
    var cursorColumn: Int { DisplayWidth.of(String(text[..<cursor])) }
}
