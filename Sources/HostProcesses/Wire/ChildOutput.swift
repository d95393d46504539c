import CHostProcess
import Glibc
import Synchronization

/// What a module's own process writes on its standard output and error when the host has not
/// lent it the terminal, read by the host through a pipe and shown by it, on its standard
/// error: the process is on the terminal only while the host lends it (a screen, a command), so
/// nothing it writes outside a loan is obeyed by the terminal, lands on a full screen the host
/// shows, or mixes with a command's output.
///
/// The child finds its end as descriptor ``childDescriptor`` and puts it in place of its
/// standard output and error before its module's code runs.
package final class ChildOutput: Sendable {
    /// The child's descriptor for its end.
    package static let childDescriptor: Int32 = 4
    /// The variable of the child's environment that says its descriptor 4 is this pipe (a
    /// descriptor 4 the host inherited and passed on, a FIFO of the person's, is not).
    package static let environmentName = "MODHOST_OUTPUT_PIPE"

    /// The write end, for the child (close-on-exec here; moved to the child's number at spawn),
    /// closed here by ``childStarted(showing:)``.
    package let childEnd: Int32
    private let readEnd: Int32
    private let done = Mutex(false)

    /// A line longer than this is given in pieces, each as much of it as has come.
    static let longestPiece = 16_384

    /// A pipe, or `nil` when none can be made (the child is then not started: it would write
    /// on the terminal).
    package init?() {
        var ends: [Int32] = [-1, -1]
        guard modhost_pipe_cloexec(&ends) == 0 else { return nil }
        // Numbered above the child's own (0-4), so that no spawn action overwrites it before
        // it is moved.
        let moved = ends.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        ends.forEach { _ = close($0) }
        guard moved.allSatisfy({ $0 >= 0 }) else {
            moved.filter { $0 >= 0 }.forEach { _ = close($0) }
            return nil
        }
        (readEnd, childEnd) = (moved[0], moved[1])
    }

    /// Closes this process's copy of the child's end (the pipe then ends with the child and
    /// what it started) and gives each line that comes to `show` (whole, with its line break;
    /// a last one as it ends; UTF-8 text that `show` makes visible), on a thread of its own;
    /// whether that thread started. Without it nothing reads the pipe (a child writing on it
    /// would block, or die of SIGPIPE with it closed): the caller ends the child.
    package func childStarted(showing show: @escaping @Sendable (String) -> Void) -> Bool {
        _ = close(childEnd)
        let forward: @Sendable () -> Void = { [self] in
            Self.forward(readEnd, to: show)
            done.withLock { $0 = true }
        }
        guard DetachedThread.start(named: "child output", forward) else {
            _ = close(readEnd)
            done.withLock { $0 = true }
            return false
        }
        return true
    }

    /// The child could not be started (or its output cannot be read): the pipe closed here,
    /// nothing to show.
    package func childNotStarted() {
        _ = close(readEnd)
        _ = close(childEnd)
        done.withLock { $0 = true }
    }

    /// Waits until everything the child wrote is shown (the pipe ended: the child has ended,
    /// and so has what it started that held the pipe), `limit` at most: what the child said
    /// before it ended comes before what the host says of its end.
    package func waitUntilShown(atMost limit: Duration = .milliseconds(300)) {
        let deadline = ContinuousClock.now + limit
        while !done.withLock({ $0 }), ContinuousClock.now < deadline { usleep(1_000) }
    }

    /// Reads `descriptor` to its end, giving its lines to `show`, and closes it.
    private static func forward(_ descriptor: Int32, to show: (String) -> Void) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            pending += chunk[..<count]
            for piece in takeLines(&pending) { show(String(decoding: piece, as: UTF8.self)) }
        }
        if !pending.isEmpty { show(String(decoding: pending, as: UTF8.self)) }
        _ = close(descriptor)
    }

    /// The whole lines at the start of `bytes`, taken, and a piece of a line too long to wait
    /// for (cut where no UTF-8 character is split).
    static func takeLines(_ bytes: inout [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        while let end = bytes[start...].firstIndex(of: 0x0A) {
            pieces.append(Array(bytes[start...end]))
            start = end + 1
        }
        if bytes.count - start > longestPiece {
            let end = wholeCharacters(bytes, from: start)
            pieces.append(Array(bytes[start..<end]))
            start = end
        }
        bytes.removeFirst(start)
        return pieces
    }

    /// Where the last whole UTF-8 character of `bytes[start...]` ends.
    private static func wholeCharacters(_ bytes: [UInt8], from start: Int) -> Int {
        var first = bytes.count - 1
        // Back over at most three continuation bytes (10xxxxxx) to the character's first.
        while first > start, bytes.count - first < 4, bytes[first] & 0xC0 == 0x80 { first -= 1 }
        let lead = bytes[first]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return first + length > bytes.count && first > start ? first : bytes.count
    }
}
