/// Why an HTTP request failed (seed 000's `APIError`, and the rest). The URL in it has its
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

    /// The message a person reads, from the module's strings (keys `http.error.*`, which a
    /// module using the client ships).
    public func message(_ strings: ModuleStrings) -> String {
        switch kind {
        case .cannotConnect: strings.format("http.error.cannot.connect", url)
        case .connectionLost: strings.format("http.error.connection.lost", url)
        case .timeout: strings.format("http.error.timeout", url)
        case .rateLimited(let retryAfter?): strings.format("http.error.rate.limited.after", "\(retryAfter)")
        case .rateLimited(nil): strings[.init("http.error.rate.limited")]
        case .status(let code): strings.format("http.error.status", "\(code)", detail.isEmpty ? "-" : detail)
        case .undecodable: strings.format("http.error.undecodable", detail)
        case .tooLarge(let limit): strings.format("http.error.too.large", "\(limit / 1024)")
        case .invalidURL: strings.format("http.error.invalid.url", url)
        }
    }
}

extension ModuleStrings {
    func format(_ key: String, _ arguments: String...) -> String {
        Self.substitute(self[StringKey(key)], arguments)
    }
}

extension HTTPError: CustomStringConvertible {
    public var description: String { "\(kind) \(url) \(detail)" }
}
