/// Where pages of photos come from: the Pixabay-compatible API or the embedded catalog.
public protocol PhotoDataSource: Sendable {
    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult
    func photo(id: Int) async throws(PhotoError) -> Hit
}
