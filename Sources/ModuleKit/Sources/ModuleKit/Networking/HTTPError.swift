/// Why an HTTP request failed. The URL in it has its
/// secrets (`key`, `apiKey`, `token` query items) redacted, so it can be shown and logged.
public struct HTTPError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The server could not be reached (refused, unknown host, offline).
        case cannotConnect
        /// The connection dropped during the exchange.
        case connectionLost
        /// The server stopped answering for longer than the timeout.
        case timeout
        /// The server answered 429; `retryAfter` seconds when it said.
        case rateLimited(retryAfter: Int?)
        /// Any other non-2xx status.
        case status(Int)
        /// The body is not what was expected (malformed or truncated JSON).
        case undecodable
        /// The body is larger than the client accepts.
        case tooLarge(limit: Int)
        /// The URL cannot be requested.
        case invalidURL
        /// The networking library could not be opened (missing, or refused as untrusted).
        case transportUnavailable
    }

    public let kind: Kind
    /// The request's URL, secrets redacted.
    public let url: String
    /// The server's message, or the decoder's or the system's words.
    public let detail: String

    public init(_ kind: Kind, url: String, detail: String = "") {
        self.kind = kind
        self.url = url
        self.detail = detail
    }
}

extension HTTPError: CustomStringConvertible {
    public var description: String { "\(kind) \(url) \(detail)" }
}
