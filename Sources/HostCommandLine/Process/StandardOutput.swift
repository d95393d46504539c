import CHostGuard
import Glibc
import ModuleKit

/// Writes to standard output with `write(2)`, never trapping: a closed pipe ends the process
/// quietly with status 1; any other failure (a full disk, an I/O error) says so on standard
/// error and exits 1. Neither is any module's doing: no crash record is left. Control
/// characters are shown as `?` (the kit's ``TerminalText``): nothing the host prints of a
/// module, a file or a server can reach the terminal as an escape.
enum StandardOutput {
    static func write(_ text: String) {
        var bytes = Array(TerminalText.visible(text).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written >= 0 {
                bytes = bytes.dropFirst(written)
                continue
            }
            if errno == EINTR { continue }
            fail(errno)
        }
    }

    /// Ends the process after output failed with `code`: the host's failure, whatever code
    /// was printing (see `modhost_output_failed`).
    static func fail(_ code: Int32) -> Never {
        modhost_output_failed(code)
    }

    /// The width of the terminal standard output is, or `nil` when it is not one (piped).
    static var terminalColumns: Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Flushes what `print` buffered (module commands use it) and reports a failed write.
    static func flush() {
        let code = modhost_flush_stdout()
        if code != 0 { fail(code) }
    }
}
