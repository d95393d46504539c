/// A storage operation failed: the message names the database and carries SQLite's own words.
public struct StorageError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The folder or file could not be created or opened.
        case open
        /// Another process holds the database longer than the busy timeout.
        case busy
        /// A constraint (UNIQUE, NOT NULL, …) refused the change.
        case constraint
        /// The database is newer than the module's migrations know.
        case newerSchema
        /// Any other SQLite error.
        case sqlite
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

extension StorageError: CustomStringConvertible {
    public var description: String { message }
}
