import ModuleKit
import PhotosDomain

/// The configured sources by name (`catalog`, and `pixabay` when it has a key), answering
/// through the one chosen now (Settings' `photos.source`, else the config's).
final class PhotoSources: PhotoDataSource {
    let sources: [String: any PhotoDataSource]
    let chosenSource: @Sendable () -> String

    init(sources: [String: any PhotoDataSource], chosenSource: @escaping @Sendable () -> String) {
        self.sources = sources
        self.chosenSource = chosenSource
    }

    /// One source, always used.
    convenience init(_ source: any PhotoDataSource) {
        self.init(sources: ["only": source], chosenSource: { "only" })
    }

    private var source: any PhotoDataSource {
        get throws(PhotoError) {
            guard let source = sources[chosenSource()] else { throw PhotoError.sourceNotConfigured }
            return source
        }
    }

    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        try await source.search(query)
    }

    func photo(id: Int) async throws(PhotoError) -> Hit {
        try await source.photo(id: id)
    }
}
