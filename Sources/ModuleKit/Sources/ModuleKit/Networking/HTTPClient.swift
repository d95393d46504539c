import Foundation

/// The HTTP client every module uses: one generic request path, async/await, a timeout (30 s
/// by default), a cap on the response size, and typed errors (``HTTPError``).
///
/// Making one costs nothing: the transport (URLSession in `libModuleKitNetworking.so`, and
/// with it FoundationNetworking, libcurl and the TLS stack, about 10 MiB and as long again as
/// the rest of a start) is opened on the first request (see ``HTTPTransportLibrary``), so a
/// module that *can* use the network pays for it only in a run that does.
///
/// ```swift
/// let page = try await http.get(url, as: PhotoResult.self)
/// let image = try await http.data(from: imageURL) { received, total in progress(received, total) }
/// ```
public final class HTTPClient: Sendable {
    public let timeout: TimeInterval
    public let maximumResponseBytes: Int
    private let transport: LazyTransport

    /// - Parameters:
    ///   - timeout: Seconds without progress before a request fails; rounded up to whole
    ///     seconds (FoundationNetworking truncates fractions, so 0.5 would mean "at once").
    ///   - maximumResponseBytes: The largest body accepted.
    ///   - transport: Where requests go; by default the URLSession transport, opened on the
    ///     first request.
    public init(timeout: TimeInterval = 30, maximumResponseBytes: Int = 20 << 20, transport: (any HTTPTransport)? = nil) {
        let timeout = max(1, timeout.rounded(.up))
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.transport = LazyTransport(given: transport, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// Decodes the JSON body of a GET of `url` as `T`.
    public func get<T: Decodable>(_ url: URL, as type: T.Type, decoder: JSONDecoder = JSONDecoder()) async throws(HTTPError) -> T {
        let data = try await data(from: url)
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw HTTPError(.undecodable, url: Self.redacted(url), detail: Self.describe(error))
        }
    }

    /// The body of a GET of `url`; `progress` hears (received, expected) bytes as they arrive.
    public func data(from url: URL, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(HTTPError) -> Data {
        let shown = Self.redacted(url)
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw HTTPError(.invalidURL, url: shown)
        }
        let response = try await transport.get(shown).get().fetch(url, shownAs: shown, progress: progress).get()
        guard (200..<300).contains(response.status) else {
            let detail = Self.serverMessage(response.body)
            if response.status == 429 {
                let retry = (response.header("Retry-After") ?? response.header("X-RateLimit-Reset"))
                    .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                throw HTTPError(.rateLimited(retryAfter: retry), url: shown, detail: detail)
            }
            throw HTTPError(.status(response.status), url: shown, detail: detail)
        }
        return response.body
    }

    /// `url` without credentials (`user:pass@` → `***@`) and with the values of secret query
    /// items replaced by `***`: what an ``HTTPError`` carries. Printing goes through ModuleKit's
    /// `Redaction` as well, which also knows the secrets a module registered.
    public static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "(a URL that cannot be shown)" }
        if components.user != nil || components.password != nil {
            components.user = "***"
            components.password = nil
        }
        let secrets: Set<String> = ["key", "apikey", "api_key", "token", "access_token", "password", "secret"]
        if let items = components.queryItems {
            components.queryItems = items.map { secrets.contains($0.name.lowercased()) ? URLQueryItem(name: $0.name, value: "***") : $0 }
        }
        return components.string ?? "(a URL that cannot be shown)"
    }

    /// The server's own words from an error body: a JSON `message`/`error`, else the text.
    static func serverMessage(_ data: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            for key in ["message", "error", "detail"] {
                if let text = object[key] as? String { return String(text.prefix(300)) }
            }
        }
        let text = String(decoding: data.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control || $0 == "\n" }) ? text : ""
    }

    /// A decoding error in a few words naming the path (`missing 'hits.0.id'`), for messages.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty ? "not valid JSON" : "bad value at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
        default: "\(error)"
        }
    }
}
