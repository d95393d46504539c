import Synchronization

/// Lines a module logged during a test, safe to append from any thread.
final class LogCapture: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ line: String) {
        storage.withLock { $0.append(line) }
    }

    var lines: [String] { storage.withLock { $0 } }
}
