import Glibc
import Synchronization

/// What happens when standard output cannot be written (a full disk, a reader that went away):
/// the end of the process, as the host's failure, never the module's whose screen or command
/// was printing. The host installs its handler once, at start; without one (a module's own
/// tests) the process says so and exits 1.
@_spi(Host) public enum OutputFailure {
    private static let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// Installs the host's handler; it must end the process.
    public static func install(_ end: @escaping @Sendable (Int32) -> Void) {
        handler.withLock { $0 = end }
    }

    /// Standard output failed with `code` (an errno): ends the process.
    public static func report(_ code: Int32) -> Never {
        if let end = handler.withLock({ $0 }) { end(code) }
        if code != EPIPE {
            StandardError.write("modhost: error: cannot write to standard output: \(String(cString: strerror(code)))\n")
        }
        _exit(1)
    }
}
