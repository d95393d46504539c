import Dispatch
import FoundationEssentials
import Synchronization

/// Moves one GET over the wire for ``HTTPClient``, which keeps the rules (schemes, statuses,
/// decoding); the URLSession transport in `libModuleKitNetworking.so` is the one modules use.
public protocol HTTPTransport: AnyObject, Sendable {
    /// The response to a GET of `url` (any status), or why there is none; `shown` is the URL
    /// with its secrets redacted, for errors. Bodies over the transport's limit fail with
    /// ``HTTPError/Kind/tooLarge(limit:)``.
    func fetch(_ url: String, shownAs shown: String, progress: (@Sendable (Int64, Int64?) -> Void)?) async -> Result<
        HTTPResponse, HTTPError
    >
}

/// A response as a transport hands it over.
public struct HTTPResponse: Sendable {
    public let status: Int
    /// Header fields, names in lower case.
    public let headers: [String: String]
    public let body: [UInt8]

    public init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A client's transport, made on its first request (once, whichever request comes first).
final class LazyTransport: Sendable {
    private let state: Mutex<(any HTTPTransport)?>
    private let timeout: Double
    private let maximumResponseBytes: Int

    init(given: (any HTTPTransport)?, timeout: Double, maximumResponseBytes: Int) {
        state = Mutex(given)
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    func get(_ shown: String) -> Result<any HTTPTransport, HTTPError> {
        state.withLock { transport in
            if let transport { return .success(transport) }
            let made = HTTPTransportLibrary.makeTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes)
            if case .success(let value) = made { transport = value }
            return made.mapError { HTTPError(.transportUnavailable, url: shown, detail: $0.message) }
        }
    }
}
