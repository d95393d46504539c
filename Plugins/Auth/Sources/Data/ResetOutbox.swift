import Foundation
import ModuleKit

/// Where reset messages go while there is no mail server: `outbox.txt` in Auth's data folder
/// (0600), one message appended per request.
public struct ResetOutbox: Sendable {
    public let path: String

    public init(storage: ModuleStorage) throws(StorageError) {
        path = try storage.file(named: "outbox.txt")
    }

    /// Appends `message` addressed to `email`.
    public func deliver(to email: String, subject: String, body: String, at date: Date) throws {
        let text = "To: \(email)\nDate: \(ISO8601DateFormatter().string(from: date))\nSubject: \(subject)\n\n\(body)\n\n"
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw AuthError.storage("cannot open the outbox '\(path)'")
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.synchronize()
    }
}
