import Dispatch
import FoundationEssentials

/// The HTTP client every module uses: one generic request path, async/await, a timeout (30 s
/// by default), a cap on the response size, and typed errors (``HTTPError``).
///
/// Making one costs nothing: the transport (URLSession in `libModuleKitNetworking.so`, and
/// with it FoundationNetworking, libcurl and the TLS stack, about 10 MiB and as long again as
/// the rest of a start) is opened on the first request (see ``HTTPTransportLibrary``), so a
/// module that *can* use the network pays for it only in a run that does.
///
/// ```swift
/// let page = try await http.get("https://pixabay.com/api/?q=cat", as: PhotoResult.self)
/// let image = try await http.data(from: imageURL) { received, total in progress(received, total) }
/// ```
///
/// URLs and bodies are plain `String`s and bytes: the SDK's interface uses the standard library
/// only (Foundation on Linux is not built with library evolution). A module that holds a
/// Foundation `URL` passes `url.absoluteString`, and makes `Data(bytes)` from a body.
public final class HTTPClient: Sendable {
    /// Seconds without progress before a request fails.
    public let timeout: Double
    public let maximumResponseBytes: Int
    private let transport: LazyTransport

    /// - Parameters:
    ///   - timeout: Seconds without progress before a request fails; rounded up to whole
    ///     seconds (FoundationNetworking truncates fractions, so 0.5 would mean "at once").
    ///   - maximumResponseBytes: The largest body accepted.
    ///   - transport: Where requests go; by default the URLSession transport, opened on the
    ///     first request.
    public init(timeout: Double = 30, maximumResponseBytes: Int = 20 << 20, transport: (any HTTPTransport)? = nil) {
        let timeout = max(1, timeout.rounded(.up))
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.transport = LazyTransport(given: transport, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// Decodes the JSON body of a GET of `url` as `T` (with a default `JSONDecoder`).
    public func get<T: Decodable>(_ url: String, as type: T.Type) async throws(HTTPError) -> T {
        let body = try await data(from: url)
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch {
            throw HTTPError(.undecodable, url: Self.redacted(url), detail: Self.describe(error))
        }
    }

    /// The body of a GET of `url`; `progress` hears (received, expected) bytes as they arrive.
    public func data(from url: String, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) async throws(HTTPError) -> [UInt8] {
        let shown = Self.redacted(url)
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
            parsed.host != nil
        else {
            throw HTTPError(.invalidURL, url: shown)
        }
        let response = try await transport.get(shown).get().fetch(url, shownAs: shown, progress: progress).get()
        guard (200..<300).contains(response.status) else {
            let detail = Self.serverMessage(response.body)
            if response.status == 429 {
                let retry = (response.header("Retry-After") ?? response.header("X-RateLimit-Reset"))
                    .flatMap { Int($0.trimmedOfSpaces()) }
                throw HTTPError(.rateLimited(retryAfter: retry), url: shown, detail: detail)
            }
            throw HTTPError(.status(response.status), url: shown, detail: detail)
        }
        return response.body
    }

    /// `url` without credentials (`user:pass@` → `***@`) and with the values of secret query
    /// items replaced by `***`: what an ``HTTPError`` carries. Printing goes through ModuleKit's
    /// `Redaction` as well, which also knows the secrets a module registered.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(a URL that cannot be shown)" }
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
    static func serverMessage(_ data: [UInt8]) -> String {
        if case .object(let object) = try? JSONParser.parse(data) {
            for key in ["message", "error", "detail"] {
                if case .string(let text) = object[key] { return String(text.prefix(300)) }
            }
        }
        let text = String(decoding: data.prefix(300), as: UTF8.self).trimmedOfWhitespace()
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
