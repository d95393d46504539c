import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP client every module uses: one generic request path on URLSession, async/await, a
/// timeout (30 s by default), a cap on the response size, and typed errors (``HTTPError``).
///
/// ```swift
/// let page = try await http.get(url, as: PhotoResult.self)
/// let image = try await http.data(from: imageURL) { received, total in progress(received, total) }
/// ```
public final class HTTPClient: Sendable {
    public let timeout: TimeInterval
    public let maximumResponseBytes: Int
    private let session: URLSession
    private let transfers: Transfers

    /// - Parameters:
    ///   - timeout: Seconds without progress before a request fails; rounded up to whole
    ///     seconds (FoundationNetworking truncates fractions, so 0.5 would mean "at once").
    ///   - maximumResponseBytes: The largest body accepted.
    public init(timeout: TimeInterval = 30, maximumResponseBytes: Int = 20 << 20) {
        let timeout = max(1, timeout.rounded(.up))
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout, 300)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let transfers = Transfers(limit: maximumResponseBytes)
        self.transfers = transfers
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
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
        let result: Result<(Data, HTTPURLResponse), HTTPError> = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: URLRequest(url: url, timeoutInterval: timeout))
            transfers.begin(task.taskIdentifier, url: shown, progress: progress) { continuation.resume(returning: $0) }
            task.resume()
        }
        let (data, response) = try result.get()
        guard (200..<300).contains(response.statusCode) else {
            let detail = Self.serverMessage(data)
            if response.statusCode == 429 {
                let retry = (response.value(forHTTPHeaderField: "Retry-After") ?? response.value(forHTTPHeaderField: "X-RateLimit-Reset"))
                    .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
                throw HTTPError(.rateLimited(retryAfter: retry), url: shown, detail: detail)
            }
            throw HTTPError(.status(response.statusCode), url: shown, detail: detail)
        }
        return data
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

/// The session delegate: collects each task's body, enforces the size cap, reports progress,
/// and turns the outcome into a result.
final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    struct Transfer {
        let url: String
        var data = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
        let progress: (@Sendable (Int64, Int64?) -> Void)?
        let finish: @Sendable (Result<(Data, HTTPURLResponse), HTTPError>) -> Void
    }

    let limit: Int
    private let transfers = Mutex<[Int: Transfer]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    func begin(
        _ id: Int, url: String, progress: (@Sendable (Int64, Int64?) -> Void)?,
        finish: @escaping @Sendable (Result<(Data, HTTPURLResponse), HTTPError>) -> Void
    ) {
        transfers.withLock { $0[id] = Transfer(url: url, progress: progress, finish: finish) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = response.expectedContentLength > Int64(limit)
        transfers.withLock { transfers in
            transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if tooLarge { transfers[dataTask.taskIdentifier]?.tooLarge = true }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (overflow, report) = transfers.withLock { transfers -> (Bool, (() -> Void)?) in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return (false, nil) }
            transfer.data.append(data)
            let overflow = transfer.data.count > limit
            transfer.tooLarge = transfer.tooLarge || overflow
            if overflow { transfer.data = Data() }
            transfers[dataTask.taskIdentifier] = transfer
            let received = Int64(transfer.data.count)
            let expected = transfer.response.map(\.expectedContentLength).flatMap { $0 > 0 ? $0 : nil }
            return (overflow, transfer.progress.map { progress in { progress(received, expected) } })
        }
        if overflow { dataTask.cancel() } else { report?() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.tooLarge {
            transfer.finish(.failure(HTTPError(.tooLarge(limit: limit), url: transfer.url)))
        } else if let error {
            transfer.finish(.failure(Self.classify(error, url: transfer.url)))
        } else if let response = transfer.response {
            transfer.finish(.success((transfer.data, response)))
        } else {
            transfer.finish(.failure(HTTPError(.connectionLost, url: transfer.url, detail: "no response")))
        }
    }

    static func classify(_ error: any Error, url: String) -> HTTPError {
        let code = (error as? URLError)?.code
        switch code {
        case .timedOut?: return HTTPError(.timeout, url: url)
        case .cannotConnectToHost?, .cannotFindHost?, .notConnectedToInternet?, .dnsLookupFailed?:
            return HTTPError(.cannotConnect, url: url, detail: error.localizedDescription)
        case .networkConnectionLost?: return HTTPError(.connectionLost, url: url, detail: error.localizedDescription)
        case .badURL?, .unsupportedURL?: return HTTPError(.invalidURL, url: url)
        default: return HTTPError(.connectionLost, url: url, detail: error.localizedDescription)
        }
    }
}
