import FoundationEssentials
import ModuleKit
import PhotosDomain

/// Photos' `config` in modules.json.
public struct PhotosConfiguration: Decodable, Sendable {
    /// `catalog` (default) or `pixabay`.
    public var source: String?
    /// Overrides the per-environment default base URL of the API.
    public var baseURL: String?
    /// The API key; else `PIXABAY_API_KEY`. Never printed.
    public var apiKey: String?
    /// Hits per page, 3–200 (default 20).
    public var perPage: Int?
    /// A catalog file to use instead of the shipped one.
    public var catalog: String?

    enum CodingKeys: String, CodingKey { case source, baseURL, apiKey, perPage, catalog }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        baseURL = try container.decodeIfPresent(String.self, forKey: .baseURL)
        apiKey = try container.decodeIfPresent(String.self, forKey: .apiKey)
        perPage = try container.decodeIfPresent(Int.self, forKey: .perPage)
        catalog = try container.decodeIfPresent(String.self, forKey: .catalog)
        // Every problem at once, in an operator's words, after every key is read.
        var problems: [String] = []
        if let source, !["catalog", "pixabay"].contains(source) {
            problems.append("config.source is \"\(source)\"; expected \"catalog\" or \"pixabay\"")
        }
        if let perPage, !SearchPhotos.perPageRange.contains(perPage) {
            let range = SearchPhotos.perPageRange
            problems.append("config.perPage is \(perPage); expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        if let baseURL, URL(string: baseURL)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            problems.append("config.baseURL is \"\(baseURL)\"; expected an http(s) URL")
        }
        if !problems.isEmpty { throw ConfigurationError(problems: problems) }
    }

    public init() {}

    /// The API's base URL for `environment` (a local server in development and test), unless `baseURL` is set.
    public func apiURL(for environment: HostEnvironment) -> URL? {
        if let baseURL { return URL(string: baseURL) }
        switch environment {
        case .development, .test: return URL(string: "http://localhost:8085/api/")
        case .stage, .production: return URL(string: "https://pixabay.com/api/")
        // An environment a later SDK adds: the real API, as in production.
        @unknown default: return URL(string: "https://pixabay.com/api/")
        }
    }
}
