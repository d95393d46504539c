import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Where the interactive app reads and writes: a TTY (colour unless `NO_COLOR`, hidden
/// entry for secrets) or piped standard input (plain lines, no escape codes).
public protocol Terminal: AnyObject, Sendable {
    /// The next line without its newline, or `nil` at end of input.
    func readLine() -> String?
    /// The next line without echo on a TTY; a plain line otherwise.
    func readSecret() -> String?
    /// Writes `text`. The process's terminal (``StandardTerminal``) shows its control
    /// characters as `?` (``TerminalText``): only the kit's own sequences reach it as such.
    func write(_ text: String)
    /// Whether escape codes (colour) may be written.
    var usesColor: Bool { get }
    /// Whether a person types at a TTY (secrets can be asked without echo).
    var isInteractive: Bool { get }
    /// Shows `text` in place of the line the cursor is on (a progress bar redrawn as it
    /// moves), its control characters as `?`. Any other terminal writes it as a line.
    ///
    /// - Since: SDK 1.6.0.
    func redrawLine(_ text: String)
}

extension Terminal {
    /// A terminal that cannot redraw writes each state as a line of its own.
    public func redrawLine(_ text: String) { write(text + "\n") }
}

/// A terminal that takes what the kit composed itself as it is: text already shown through
/// ``TerminalText``, with the kit's own colour codes around it. ``TerminalUI`` writes its
/// lines this way; a wrapper of the process's terminal (the host's guard) passes them on.
@_spi(Host)
public protocol ComposedOutput: AnyObject {
    /// Writes `composed` as is.
    func writeComposed(_ composed: String)
}

@_spi(Host)
extension StandardTerminal: ComposedOutput {}

/// The process's standard input and output.
public final class StandardTerminal: Terminal {
    public let usesColor: Bool
    private let isTTY: Bool
    public var isInteractive: Bool { isTTY }
    /// Longest line kept; the rest of a longer line is read and dropped.
    public static let maximumLineLength = 4_096

    public init(environment: [String: String] = ProcessEnvironment.variables) {
        isTTY = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
        usesColor = isTTY && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }

    public func readLine() -> String? {
        // A terminal gives one line a read; anything else (a pipe, a file) is read a byte at a
        // time, so that no line after this one is taken into a buffer of this process: another
        // process given the same input next (a module's own, a child) reads it instead.
        guard let line = isatty(STDIN_FILENO) == 1 ? Swift.readLine(strippingNewline: true) : Self.readLineUnbuffered() else {
            return nil
        }
        // Invalid UTF-8 arrives repaired (U+FFFD); a huge line is cut to a size screens handle.
        return line.count > Self.maximumLineLength ? String(line.prefix(Self.maximumLineLength)) : line
    }

    /// The next line of standard input, read up to its newline and no further; `nil` at the
    /// end of input before any byte.
    static func readLineUnbuffered() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        var readAny = false
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { break }
            readAny = true
            if byte == UInt8(ascii: "\n") { break }
            // What a long line has past what is kept is read, not kept.
            if bytes.count < maximumLineLength * 4 { bytes.append(byte) }
        }
        guard readAny else { return nil }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    public func readSecret() -> String? {
        guard isTTY else { return readLine() }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine() }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            write("\n")
        }
        return readLine()
    }

    /// Writes `text` with its control characters shown as `?` (``TerminalText/visible(_:)``):
    /// a module that writes here directly cannot send the terminal an escape either.
    public func write(_ text: String) {
        writeComposed(TerminalText.visible(text))
    }

    /// Back to the start of the line, `text`, and the rest of the line cleared: the kit's
    /// own sequences around a text shown as `?` where it holds control characters.
    public func redrawLine(_ text: String) {
        writeComposed("\r" + TerminalText.visible(text) + "\u{1B}[K")
    }

    /// Writes `composed` as is: the kit's own text, whose parts from outside already went
    /// through ``TerminalText`` and whose escape sequences (colour) are the kit's.
    @_spi(Host)
    public func writeComposed(_ composed: String) {
        // write(2), not FileHandle.write(_:), which traps when standard output is full or gone.
        // What `print` buffered goes first, so the two keep their order.
        fflush(nil)
        Self.writeAll(composed, to: STDOUT_FILENO)
    }

    /// Writes all of `text` to `descriptor`, through interruptions; a write that fails is
    /// the host's failure (``OutputFailure``), not the module's whose screen was drawing.
    static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { OutputFailure.report(written < 0 ? errno : EIO) }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// A terminal fed from a list of lines that records what is written: for tests and scripts.
public final class ScriptedTerminal: Terminal {
    private let state: Mutex<(lines: [String], output: String)>
    public let usesColor = false
    public let isInteractive: Bool

    public init(lines: [String], isInteractive: Bool = false) {
        self.isInteractive = isInteractive
        state = Mutex((lines, ""))
    }

    public func readLine() -> String? {
        state.withLock { state in state.lines.isEmpty ? nil : state.lines.removeFirst() }
    }

    public func readSecret() -> String? { readLine() }

    public func write(_ text: String) {
        state.withLock { $0.output += text }
    }

    /// Everything written so far.
    public var output: String { state.withLock { $0.output } }
}
