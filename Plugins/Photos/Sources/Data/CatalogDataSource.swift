import FoundationEssentials
import ModuleKit
import PhotosDomain
import Synchronization

/// The embedded source: a JSON file in the API's documented page format (shipped with the
/// module, or the user's own; read by the same decoder as the service), searched by tags.
/// Image paths in it may be relative to the file.
final class CatalogDataSource: PhotoDataSource {
    let path: String
    private let loaded = Mutex<[Hit]?>(nil)

    init(path: String) {
        self.path = path
    }

    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        let words = query.text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," || $0 == "+" }).map(String.init)
        let matches = try hits().filter { hit in
            let tags = hit.tags.lowercased()
            return words.allSatisfy { tags.contains($0) || tags.contains(Self.singular($0)) }
        }
        let start = (query.page - 1) * query.perPage
        let page = start < matches.count ? Array(matches[start..<min(matches.count, start + query.perPage)]) : []
        return PhotoResult(total: matches.count, totalHits: matches.count, hits: page)
    }

    func photo(id: Int) async throws(PhotoError) -> Hit {
        guard let hit = try hits().first(where: { $0.id == id }) else { throw PhotoError.notFound(id: id) }
        return hit
    }

    private func hits() throws(PhotoError) -> [Hit] {
        if let hits = loaded.withLock({ $0 }) { return hits }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PhotoError.catalogUnreadable(path: path)
        }
        let result: PhotoResult
        do {
            result = try PixabayPage.decode(data, addresses: .catalog).result
        } catch {
            guard case .unexpectedPage(let problem) = error else {
                throw PhotoError.catalogNotAPage(path: path, PageProblem(field: "", kind: .notJSON))
            }
            throw PhotoError.catalogNotAPage(path: path, problem)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let hits = result.hits.map { Self.resolving($0, against: folder) }
        loaded.withLock { $0 = hits }
        return hits
    }

    /// An English plural's singular, for matching tags as the API does ("cats" finds "cat",
    /// "puppies" "puppy", "foxes" "fox"); other words unchanged.
    static func singular(_ word: String) -> String {
        if word.count > 4, word.hasSuffix("ies") { return word.dropLast(3) + "y" }
        if word.count > 3, word.hasSuffix("es"), ["s", "x", "z", "ch", "sh"].contains(where: { word.dropLast(2).hasSuffix($0) }) {
            return String(word.dropLast(2))
        }
        if word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") { return String(word.dropLast()) }
        return word
    }

    /// Why the catalog cannot be searched, if it cannot: what `modhost check` asks (the file
    /// is read and parsed once, as the first search would). `nil` when it can.
    func problem() -> CatalogProblem? {
        guard FileManager.default.fileExists(atPath: path) else { return .missing(path: path) }
        do {
            _ = try hits()
            return nil
        } catch {
            return .unusable(error)
        }
    }

    enum CatalogProblem: Equatable {
        case missing(path: String)
        case unusable(PhotoError)
    }

    /// Relative image paths become file URLs beside the catalog.
    static func resolving(_ hit: Hit, against folder: URL) -> Hit {
        func absolute(_ reference: String) -> String {
            reference.contains("://") ? reference : folder.appendingPathComponent(reference).absoluteString
        }
        return Hit(
            id: hit.id, pageURL: hit.pageURL, type: hit.type, tags: hit.tags, previewURL: absolute(hit.previewURL),
            previewWidth: hit.previewWidth, previewHeight: hit.previewHeight, webformatURL: absolute(hit.webformatURL),
            webformatWidth: hit.webformatWidth, webformatHeight: hit.webformatHeight, largeImageURL: absolute(hit.largeImageURL),
            imageWidth: hit.imageWidth, imageHeight: hit.imageHeight, imageSize: hit.imageSize, views: hit.views,
            downloads: hit.downloads, collections: hit.collections, likes: hit.likes, comments: hit.comments, userID: hit.userID,
            user: hit.user, userImageURL: hit.userImageURL)
    }
}
