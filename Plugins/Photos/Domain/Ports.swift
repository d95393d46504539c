/// What the use cases need from the outside world, implemented in Data: a source of pages and
/// photos (the Pixabay API, a local catalog) and a source of images (through a cache).
public protocol PhotoDataSource: Sendable {
    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult
    func photo(id: Int) async throws(PhotoError) -> Hit
}

/// Images by address, with progress as (received, expected) bytes.
public protocol ImageSource: Sendable {
    func image(at address: String, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8]
}

/// The person's choices a search carries, read at the time of each search.
public struct SearchPreferences: Sendable, Equatable {
    /// The app's language (`en`, `fr`, …).
    public var language: String
    /// Results suitable for all ages only.
    public var safeSearch: Bool

    public init(language: String = "en", safeSearch: Bool = true) {
        self.language = language
        self.safeSearch = safeSearch
    }
}
