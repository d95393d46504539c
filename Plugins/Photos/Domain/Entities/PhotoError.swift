/// Why Photos could not answer. Domain-level: the Data layer maps network and file failures
/// onto these; the Presentation layer words them.
public enum PhotoError: Error, Sendable, Equatable {
    case emptyQuery
    case queryTooLong(limit: Int)
    case pageOutOfRange(page: Int, pages: Int)
    case notFound(id: Int)
    /// The service could not be reached, or the connection dropped; carries the URL.
    case unreachable(String)
    /// This machine cannot send requests at all (the networking library is missing or was
    /// refused); carries why.
    case noNetworking(String)
    /// The service stopped answering; carries the URL.
    case timeout(String)
    /// Too many requests; retry after that many seconds when the service said.
    case rateLimited(retryAfter: Int?)
    /// The service refused: its status and its own message.
    case rejected(status: Int, message: String)
    /// The answer was not a page of photos (malformed or truncated).
    case badResponse(String)
    /// The answer was JSON but not the documented page: which field, and what is wrong.
    case unexpectedPage(PageProblem)
    /// The answer was larger than accepted, in KB.
    case tooLarge(limitKB: Int)
    /// The catalog file (its path) could not be read.
    case catalogUnreadable(path: String)
    /// The catalog file (its path) is not a page of photos: which field, what is wrong.
    case catalogNotAPage(path: String, PageProblem)
    /// An image the catalog names (its path) could not be read.
    case catalogImageUnreadable(path: String)
    /// The image could not be saved.
    case storage(String)
    /// The file to save exists and replacing it was not asked for; carries its path.
    case fileExists(String)
    /// The folder to save in does not exist and creating it was not asked for.
    case folderMissing(String)
    /// The chosen source (Settings' `photos.source`) is not configured.
    case sourceNotConfigured
}

/// What is wrong with a page of photos a service sent.
public struct PageProblem: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The answer is not JSON (or is cut short).
        case notJSON
        /// A field the app needs is absent or null.
        case missing
        /// A field has another type than documented.
        case wrongType
        /// An image address is not an http(s) URL.
        case notWebAddress
    }

    /// The field as a person reads it: `hits[0].largeImageURL`; empty for the whole answer.
    public let field: String
    public let kind: Kind

    public init(field: String, kind: Kind) {
        self.field = field
        self.kind = kind
    }
}
