import FoundationEssentials
import ModuleKit

/// Where reset messages go while there is no mail server: `outbox.txt` in Auth's data folder
/// (0600), one message appended per request. It is opened relative to Auth's folder and never
/// through a symlink: a link planted in its place is refused, and no token leaves the folder.
public struct ResetOutbox: Sendable {
    private let folder: StorageFolder
    public static let fileName = "outbox.txt"

    public init(storage: ModuleStorage) throws(StorageError) {
        folder = try storage.files()
        // Checked now, so a link planted in its place fails Auth at start; made (0600) by the
        // first message, so a start writes nothing.
        try folder.verify(Self.fileName)
    }

    /// The outbox's path, for messages.
    public var path: String { folder.path + "/" + Self.fileName }

    /// Makes the outbox (empty, 0600) if there is none: a reset request for an unknown email
    /// leaves the same outbox as one for a known email, so its presence tells nothing.
    public func make() throws {
        do {
            try folder.append(Self.fileName, [])
        } catch {
            throw AuthError.storage(error.message)
        }
    }

    /// Appends `message` addressed to `email`.
    public func deliver(to email: String, subject: String, body: String, at date: Date) throws {
        let text = "To: \(email)\nDate: \(date.ISO8601Format())\nSubject: \(subject)\n\n\(body)\n\n"
        do {
            try folder.append(Self.fileName, Array(text.utf8))
        } catch {
            throw AuthError.storage(error.message)
        }
    }
}
