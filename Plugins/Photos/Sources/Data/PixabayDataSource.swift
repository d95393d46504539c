import Foundation
import ModuleKit
import ModuleKitNetworking

/// A Pixabay-compatible API: `GET base?key=&q=&page=&per_page=` (and `&id=` for one photo).
/// Answers are cached for 24 hours; the key never appears in messages or logs.
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

    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        try await get([
            URLQueryItem(name: "q", value: query.text), URLQueryItem(name: "page", value: "\(query.page)"),
            URLQueryItem(name: "per_page", value: "\(query.perPage)"),
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
        if let cached = cache.get(cacheKey), let result = try? JSONDecoder().decode(PhotoResult.self, from: Data(cached)) {
            return result
        }
        let data: Data
        do {
            data = try await http.data(from: url)
        } catch {
            throw Self.map(error)
        }
        let result: PhotoResult
        do {
            result = try JSONDecoder().decode(PhotoResult.self, from: data)
        } catch {
            throw PhotoError.badResponse(HTTPClient.describe(error))
        }
        cache.put(cacheKey, [UInt8](data))
        return result
    }

    /// Network failures in the domain's words; URLs and the server's text through the kit's
    /// redaction, the text cut to an excerpt.
    static func map(_ error: HTTPError) -> PhotoError {
        switch error.kind {
        case .cannotConnect, .connectionLost, .invalidURL: .unreachable(Redaction.redact(error.url))
        case .timeout: .timeout(Redaction.redact(error.url))
        case .rateLimited(let retryAfter): .rateLimited(retryAfter: retryAfter)
        case .status(let status): .rejected(status: status, message: Redaction.excerpt(error.detail))
        case .undecodable: .badResponse(Redaction.excerpt(error.detail))
        case .tooLarge(let limit): .tooLarge(limitKB: limit / 1024)
        }
    }
}
