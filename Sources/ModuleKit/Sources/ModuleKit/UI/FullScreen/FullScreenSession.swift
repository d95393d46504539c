import CTerminal
import Glibc
import Synchronization

/// The terminal in full-screen mode: the alternate screen, keys read one by one (no echo, no
/// line editing by the terminal; Ctrl-C still a signal), the size, and frames drawn by
/// difference. Leaving restores the terminal as it was; the host's guard does the same on the
/// paths that never come back here (a crash, a signal, the watchdog).
/// The app's screens drive it, on the main actor; the signal handlers it installs talk to it
/// only through ``ResizeSignal``'s pipe.
@MainActor
final class FullScreenSession {
    let input: Int32
    let output: Int32
    let usesColor: Bool
    /// What leaving writes: no more mouse reports, the cursor back, normal style, off the
    /// alternate screen.
    nonisolated static let leaveSequence = "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
    /// The alternate screen, cleared; mouse clicks and the wheel reported (1000), in SGR form
    /// (1006: no limit on the column). Most terminals still select text with Shift held.
    /// Pasted text marked as such (2004): a line break or an escape in it is text, not a key.
    nonisolated static let enterSequence = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J\u{1B}[?1000h\u{1B}[?1006h\u{1B}[?2004h"

    private var saved = termios()
    /// The settings of this mode, put back after a Ctrl-Z and `fg`.
    private var raw = termios()
    private var active = false
    private var shown: ScreenGrid?
    private var cursorShown = true
    /// Bytes read but not yet a whole key, and keys decoded but not yet asked for.
    private var pending: [UInt8] = []
    private var queued: [Key] = []
    /// Whether the bytes read so far end inside a pasted text.
    private var pasting = false
    private(set) var rows = 24
    private(set) var columns = 80

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, usesColor: Bool) {
        self.input = input
        self.output = output
        self.usesColor = usesColor
    }

    /// Enters the mode; `false` when the terminal cannot (then the line mode stays).
    func enter() -> Bool {
        guard tcgetattr(input, &saved) == 0 else { return false }
        var raw = saved
        // No echo, no line buffering, no Ctrl-V/Ctrl-O, no CR→NL; signals (Ctrl-C) stay.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        raw.c_cc.6 = 1  // VMIN
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { return false }
        self.raw = raw
        DisplayWidth.prepare()
        ResizeSignal.install()
        // Ctrl-Z gives the shell its terminal back; `fg` takes the screen again.
        Self.leaveSequence.withCString { modhost_suspend_install(output, $0, &saved, ResizeSignal.writeEnd) }
        active = true
        measure()
        write(Self.enterSequence)
        shown = nil
        return true
    }

    /// Leaves the mode: the terminal as it was before ``enter()``.
    func leave() {
        guard active else { return }
        active = false
        modhost_suspend_remove()
        write(Self.leaveSequence)
        tcsetattr(input, TCSANOW, &saved)
    }

    /// Reads the size from the terminal (80×24 when it does not say).
    func measure() {
        var size = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 {
            rows = Int(size.ws_row)
            columns = Int(size.ws_col)
        }
    }

    /// Draws `grid`, writing only what differs from the last frame (all of it after a resize).
    func draw(_ grid: ScreenGrid, cursor: (row: Int, column: Int)?) {
        var bytes = ScreenRenderer.bytes(from: shown, to: grid, cursor: cursor, color: usesColor)
        let wantsCursor = cursor != nil
        if wantsCursor != cursorShown {
            bytes += wantsCursor ? "\u{1B}[?25h" : "\u{1B}[?25l"
            cursorShown = wantsCursor
        }
        shown = grid
        write(bytes)
    }

    /// Writes `text` over row `row` of the frame shown, at once, the rest unchanged: what the
    /// app says while it works and reads no key (the next frame draws over it).
    func overwrite(row: Int, with text: String, style: CellStyle) {
        guard var grid = shown, row >= 0, row < rows else { return }
        _ = grid.put(String(repeating: " ", count: columns), row: row, column: 0)
        _ = grid.put(DisplayWidth.truncate(text, to: columns), row: row, column: 0, style: style)
        draw(grid, cursor: nil)
    }

    /// Drops what was typed and not yet read: keys pressed at a screen that did not answer
    /// (it was working) would act on the next one.
    func discardTypedInput() {
        tcflush(input, TCIFLUSH)
        pending = []
        queued = []
    }

    /// What was typed and not yet read, as the terminal sent it, taken from this session: the
    /// terminal's next reader (another process the terminal is lent to) reads it first, and
    /// a key typed ahead is not lost on the way.
    func takeTypedAhead() -> [UInt8] {
        defer {
            pending = []
            queued = []
            pasting = false
        }
        // Inside a paste, what follows is still pasted text for the next reader too.
        return queued.flatMap(\.typedBytes) + (pasting ? Key.pasteStart : []) + pending
    }

    /// Keys typed ahead at the terminal's last reader (``takeTypedAhead()``), read before
    /// anything read here. They come from another process: only keys a person types are taken
    /// (no mouse report, which could click on this screen; nothing unknown), at most 64.
    func giveTypedAhead(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        var open = false
        let keys = Key.decode(Array(bytes.prefix(1_024)), escapeIsComplete: true, pasting: &open).keys.filter { key in
            switch key {
            case .mouse, .unknown: false
            default: true
            }
        }
        var given = keys.prefix(64).flatMap(\.typedBytes)
        // A paste that goes on past them goes on here: its end is still to come from the terminal.
        if open {
            if case .paste? = keys.prefix(64).last { given.removeLast(Key.pasteEnd.count) } else { given += Key.pasteStart }
        }
        pending = given + pending
    }

    /// The next key, or `nil` at end of input; `.resized` when the terminal changed size.
    func readKey() -> InputEvent? {
        while true {
            let signals = ResizeSignal.take()
            if signals.continued {
                // Back from a Ctrl-Z: this mode's settings and screen again, drawn whole.
                tcsetattr(input, TCSANOW, &raw)
                write(Self.enterSequence)
                shown = nil
                cursorShown = true
            }
            if signals.resized || signals.continued {
                measure()
                return .resized
            }
            if !queued.isEmpty { return .key(queued.removeFirst()) }
            if pending.isEmpty {
                // A paste comes in one burst: one whose end has not come within a second is
                // over, so that a terminal that never ends it does not take every later key.
                if pasting && !hasInput(waitingMilliseconds: 1_000) { pasting = false }
                guard waitForInput() else { continue }
                guard let bytes = readBytes() else { return nil }
                pending = bytes
            }
            // A sequence cut at the end of a read: its rest follows at once, or a lone ESC was
            // the Escape key (a person cannot type the rest of a sequence that fast).
            var (keys, rest) = Key.decode(pending, escapeIsComplete: false, pasting: &pasting)
            if !rest.isEmpty {
                // Inside a paste, the rest of its end marker may come later over a slow link.
                if hasInput(waitingMilliseconds: pasting ? 1_000 : 30), let more = readBytes() {
                    pending = rest + more
                } else if pasting {
                    // A paste whose end never came: half a marker dropped, keys are keys again.
                    pasting = false
                    pending = []
                } else {
                    // What is still not a key (half a sequence) is dropped.
                    keys += Key.decode(rest, escapeIsComplete: true, pasting: &pasting).keys
                    pending = []
                }
            } else {
                pending = []
            }
            queued += keys
        }
    }

    /// Waits until a key comes or the size changes; `false` when it was the size (or a
    /// signal interrupted the wait: the caller looks again).
    private func waitForInput() -> Bool {
        var fds = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: ResizeSignal.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, ResizeSignal.readEnd >= 0 ? 2 : 1, -1)
        // Another failure: the read after it says what became of the input.
        if ready < 0 { return errno != EINTR }
        return fds[1].revents == 0
    }

    private func hasInput(waitingMilliseconds: Int32) -> Bool {
        var poller = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, waitingMilliseconds) > 0
    }

    /// What is there to read; `nil` at end of input.
    private func readBytes() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return Array(buffer[..<count])
        }
    }

    private func write(_ text: String) {
        StandardTerminal.writeAll(text, to: output)
    }
}

/// What the person did: a key, or the terminal changed size.
enum InputEvent: Equatable {
    case key(Key)
    case resized
}

/// SIGWINCH (byte 1), and the continue after a Ctrl-Z (byte 2, from `modhost_suspend`), told
/// through a pipe the key reader waits on (a handler may only write).
enum ResizeSignal {
    nonisolated(unsafe) static var readEnd: Int32 = -1
    nonisolated(unsafe) static var writeEnd: Int32 = -1
    private static let installed = Mutex(false)

    static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return }
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            readEnd = ends[0]
            writeEnd = ends[1]
            signal(SIGWINCH) { _ in
                var byte: UInt8 = 1
                _ = Glibc.write(ResizeSignal.writeEnd, &byte, 1)
            }
        }
    }

    /// Whether the size changed, and whether the app was continued after a stop, since the
    /// last call (every pending byte taken).
    static func take() -> (resized: Bool, continued: Bool) {
        guard readEnd >= 0 else { return (false, false) }
        var taken: (resized: Bool, continued: Bool) = (false, false)
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return taken }
            for byte in buffer[..<count] {
                if byte == 2 { taken.continued = true } else { taken.resized = true }
            }
        }
    }
}
