import FoundationEssentials
import ModuleKit
import PhotosDomain

/// A Pixabay-compatible API: `GET base?key=&q=&lang=&safesearch=&page=&per_page=` (and
/// `&id=` for one photo), answered with the documented page (see ``PixabayPage``). Answers
/// are cached for 24 hours; the key never appears in messages or logs.
final class PixabayDataSource: PhotoDataSource {
    let baseURL: URL
    let apiKey: String
    let http: HTTPClient
    let cache: ResponseCache

    init(baseURL: URL, apiKey: String, http: HTTPClient, cache: ResponseCache) {
        // Never printed, wherever it turns up (a server may echo it back).
        Redaction.register(secret: apiKey)
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.http = http
        self.cache = cache
    }

    /// What the API's terms ask to show wherever its results are.
    static let attribution = Attribution(name: "Pixabay", link: "https://pixabay.com/")
    /// The API's languages that the app speaks (all six of the app's are among them).
    static let languages: Set<String> = ["en", "es", "fr", "de", "it", "el"]

    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        try await get([
            URLQueryItem(name: "q", value: query.text),
            URLQueryItem(name: "lang", value: Self.languages.contains(query.language) ? query.language : "en"),
            URLQueryItem(name: "safesearch", value: query.safeSearch ? "true" : "false"),
            URLQueryItem(name: "page", value: "\(query.page)"), URLQueryItem(name: "per_page", value: "\(query.perPage)"),
        ])
    }

    func photo(id: Int) async throws(PhotoError) -> Hit {
        guard let hit = try await get([URLQueryItem(name: "id", value: "\(id)")]).hits.first else { throw PhotoError.notFound(id: id) }
        return hit
    }

    private func get(_ items: [URLQueryItem]) async throws(PhotoError) -> PhotoResult {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw PhotoError.unreachable(Redaction.redact(baseURL.absoluteString))
        }
        components.queryItems = (components.queryItems ?? []) + items
        let cacheKey = components.string ?? ""
        components.queryItems = [URLQueryItem(name: "key", value: apiKey)] + (components.queryItems ?? [])
        guard let url = components.url else { throw PhotoError.unreachable(Redaction.redact(baseURL.absoluteString)) }
        if let cached = cache.get(cacheKey), let page = try? PixabayPage.decode(Data(cached), addresses: .web) {
            return Self.result(page)
        }
        let body: [UInt8]
        do {
            body = try await http.data(from: url.absoluteString)
        } catch {
            throw Self.map(error)
        }
        let page = try PixabayPage.decode(Data(body), addresses: .web)
        cache.put(cacheKey, body)
        return Self.result(page)
    }

    private static func result(_ page: PixabayPage) -> PhotoResult {
        let result = page.result
        return PhotoResult(total: result.total, totalHits: result.totalHits, hits: result.hits, attribution: attribution)
    }

    /// The API's plain-text errors read `[ERROR 400] Invalid or missing API key`: the message
    /// is what follows the bracket.
    static func serverText(_ detail: String) -> String {
        let trimmed = detail.trimmingWhitespace()
        guard trimmed.hasPrefix("[ERROR"), let close = trimmed.firstIndex(of: "]") else { return trimmed }
        return trimmed[trimmed.index(after: close)...].trimmingSpaces()
    }

    /// Network failures in the domain's words; URLs and the server's text through the kit's
    /// redaction, the text cut to an excerpt.
    static func map(_ error: HTTPError) -> PhotoError {
        switch error.kind {
        case .cannotConnect, .connectionLost, .invalidURL: .unreachable(Redaction.redact(error.url))
        case .timeout: .timeout(Redaction.redact(error.url))
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .status(let status): .rejected(status: status, message: Redaction.excerpt(serverText(error.detail)))
        case .undecodable: .badResponse(Redaction.excerpt(error.detail))
        case .tooLarge(let limit): .tooLarge(limitKB: limit / 1024)
        case .transportUnavailable: .noNetworking(Redaction.redact(error.detail))
        @unknown default: .badResponse(Redaction.excerpt(error.detail))
        }
    }
}
