import FoundationEssentials
import ModuleKit
import PhotosDomain

/// Images through the image cache: a file URL (the catalog's) from disk, anything else over
/// HTTP.
struct CachedImages: ImageSource {
    let cache: ImageCache

    func image(at address: String, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8] {
        guard let url = URL(string: address), url.scheme != nil else {
            throw PhotoError.unexpectedPage(PageProblem(field: "largeImageURL", kind: .notWebAddress))
        }
        return try await cache.data(for: url, progress: progress)
    }

    /// How the cache fetches what it does not hold.
    static func fetcher(http: HTTPClient) -> ImageCache.Fetch {
        { url, progress throws(PhotoError) in
            if url.isFileURL {
                guard let data = FileManager.default.contents(atPath: url.path) else {
                    throw PhotoError.catalogImageUnreadable(path: url.path)
                }
                return [UInt8](data)
            }
            do throws(HTTPError) {
                return try await http.data(from: url.absoluteString, progress: progress)
            } catch {
                throw PixabayDataSource.map(error)
            }
        }
    }
}
