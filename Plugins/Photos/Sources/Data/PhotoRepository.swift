import Foundation
import ModuleKit
import ModuleKitNetworking

/// The use cases on a data source and the image cache (seed 001's repository).
public final class PhotoRepository: SearchPhotosUseCase, GetPhotoUseCase, DownloadPhotoUseCase {
    public static let maximumQueryLength = 100
    public static let perPageRange = 3...200

    /// The person's choices a query carries: the app's language and safe search.
    struct Preferences: Sendable {
        var language = "en"
        var safeSearch = true
    }

    let sources: [String: any PhotoDataSource]
    let chosenSource: @Sendable () -> String
    let preferences: @Sendable () -> Preferences
    let images: ImageCache

    /// - Parameters:
    ///   - sources: The configured sources by name (`catalog`, and `pixabay` when it has a key).
    ///   - chosenSource: The name to use now (Settings' `photos.source`, else the config's).
    ///   - preferences: The language and safe search to ask for now.
    init(
        sources: [String: any PhotoDataSource], chosenSource: @escaping @Sendable () -> String,
        preferences: @escaping @Sendable () -> Preferences = { Preferences() }, images: ImageCache
    ) {
        self.sources = sources
        self.chosenSource = chosenSource
        self.preferences = preferences
        self.images = images
    }

    /// One source, always used.
    convenience init(source: any PhotoDataSource, images: ImageCache) {
        self.init(sources: ["only": source], chosenSource: { "only" }, images: images)
    }

    private var source: any PhotoDataSource {
        get throws(PhotoError) {
            guard let source = sources[chosenSource()] else { throw PhotoError.sourceNotConfigured }
            return source
        }
    }

    public func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        let text = query.text.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw PhotoError.emptyQuery }
        guard text.count <= Self.maximumQueryLength else { throw PhotoError.queryTooLong(limit: Self.maximumQueryLength) }
        let perPage = min(max(query.perPage, Self.perPageRange.lowerBound), Self.perPageRange.upperBound)
        let now = preferences()
        let checked = PhotoQuery(text: text, page: max(1, query.page), perPage: perPage, language: now.language, safeSearch: now.safeSearch)
        let result = try await source.search(checked)
        let pages = checked.pageCount(of: result)
        if checked.page > pages && checked.page > 1 { throw PhotoError.pageOutOfRange(page: checked.page, pages: pages) }
        return result
    }

    public func photo(id: Int) async throws(PhotoError) -> Hit {
        try await source.photo(id: id)
    }

    public func image(of hit: Hit, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8] {
        guard let url = URL(string: hit.largeImageURL) else { throw PhotoError.badResponse("largeImageURL '\(hit.largeImageURL)'") }
        return try await images.data(for: url, progress: progress)
    }

    /// Fetches an image: a file URL (the catalog's) from disk, anything else over HTTP.
    static func fetcher(http: HTTPClient) -> ImageCache.Fetch {
        { url, progress throws(PhotoError) in
            if url.isFileURL {
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw PhotoError.catalog("'\(url.path)' cannot be read")
                }
                return [UInt8](data)
            }
            do throws(HTTPError) {
                return [UInt8](try await http.data(from: url, progress: progress))
            } catch {
                throw PixabayDataSource.map(error)
            }
        }
    }
}
