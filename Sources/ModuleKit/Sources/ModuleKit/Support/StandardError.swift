import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error, written with one `write(2)` per message so lines from threads do not mix,
/// its control characters shown as `?` (``TerminalText``).
///
/// While the app's screen is full screen (its own, or one another process drew on the terminal
/// it lent), a line written here would land anywhere on that screen: the host holds them
/// (``hold()``) and shows them on its screen (``takeHeld()``), or writes them once it lets go.
public enum StandardError {
    @Sendable
    public static func write(_ text: String) {
        let visible = TerminalText.visible(text)
        let held = state.withLock { state in
            guard state.holds > 0 else { return false }
            if state.lines.count < mostHeld { state.lines.append(visible) } else { state.dropped += 1 }
            return true
        }
        if !held { writeNow(visible) }
    }

    /// Holds what is written from now on, until as many ``unhold()``s.
    @_spi(Host)
    public static func hold() {
        state.withLock { $0.holds += 1 }
    }

    /// Ends one ``hold()``; once none is left, writes what is still held.
    @_spi(Host)
    public static func unhold() {
        let rest = state.withLock { state -> [String] in
            state.holds = max(state.holds - 1, 0)
            return state.holds == 0 ? state.take() : []
        }
        for line in rest { writeNow(line) }
    }

    /// The lines held so far, taken (for a screen to show), with a last one saying how many more
    /// there were.
    @_spi(Host)
    public static func takeHeld() -> [String] {
        state.withLock { $0.take() }
    }

    /// Puts `lines` back before what is held (a screen that is left before it showed them), or
    /// writes them when nothing holds.
    @_spi(Host)
    public static func putBack(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        let written = lines.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }
        let held = state.withLock { state in
            guard state.holds > 0 else { return false }
            state.lines = Array((written + state.lines).prefix(mostHeld))
            return true
        }
        if !held { for line in written { writeNow(TerminalText.visible(line)) } }
    }

    /// Writes what is held, holding or not: the process ends.
    @_spi(Host)
    public static func writeHeld() {
        for line in takeHeld() { writeNow(line) }
    }

    /// At most this many lines are held; the rest are counted.
    static let mostHeld = 64

    private struct Held {
        var holds = 0
        var lines: [String] = []
        var dropped = 0

        mutating func take() -> [String] {
            defer { (lines, dropped) = ([], 0) }
            return dropped == 0 ? lines : lines + ["modhost: \(dropped) more lines were written meanwhile and not kept\n"]
        }
    }

    private static let state = Mutex(Held())

    private static func writeNow(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}
