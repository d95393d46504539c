import CHostGuard
import Glibc

/// Writes to standard output with `write(2)`, never trapping: a closed pipe ends the process
/// quietly, as Unix tools do; any other failure (a full disk, a closed descriptor) says so on
/// standard error and exits 1.
enum StandardOutput {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
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

    /// Ends the process after output failed with `code`.
    static func fail(_ code: Int32) -> Never {
        if code != EPIPE {
            let message = "modhost: error: cannot write to standard output: \(String(cString: strerror(code)))\n"
            _ = message.withCString { Glibc.write(STDERR_FILENO, $0, strlen($0)) }
        }
        modhost_guard_exit_now(1)
    }

    /// Flushes what `print` buffered (module commands use it) and reports a failed write.
    static func flush() {
        let code = modhost_flush_stdout()
        if code != 0 { fail(code) }
    }
}
