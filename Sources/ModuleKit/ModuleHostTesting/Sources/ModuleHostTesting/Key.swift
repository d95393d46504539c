/// A key a person presses, as a terminal sends it to the program (xterm's sequences, normal
/// cursor mode).
public enum Key: Sendable, Hashable {
    case enter, tab, backspace, escape, delete
    case up, down, left, right
    case home, end, pageUp, pageDown
    /// Control and a letter: `.control("c")` is Ctrl-C (the terminal turns it into SIGINT),
    /// `.control("d")` is end of input at the start of a line, `.control("l")` asks for a redraw.
    case control(Character)

    /// The bytes the terminal sends.
    public var bytes: [UInt8] {
        switch self {
        case .enter: [0x0D]
        case .tab: [0x09]
        case .backspace: [0x7F]
        case .escape: [0x1B]
        case .delete: Array("\u{1B}[3~".utf8)
        case .up: Array("\u{1B}[A".utf8)
        case .down: Array("\u{1B}[B".utf8)
        case .right: Array("\u{1B}[C".utf8)
        case .left: Array("\u{1B}[D".utf8)
        case .home: Array("\u{1B}[H".utf8)
        case .end: Array("\u{1B}[F".utf8)
        case .pageUp: Array("\u{1B}[5~".utf8)
        case .pageDown: Array("\u{1B}[6~".utf8)
        case .control(let letter):
            // Ctrl-A is 1 … Ctrl-Z is 26; other characters send nothing.
            letter.lowercased().unicodeScalars.first.map { scalar in
                (97...122).contains(scalar.value) ? [UInt8(scalar.value - 96)] : []
            } ?? []
        }
    }
}
