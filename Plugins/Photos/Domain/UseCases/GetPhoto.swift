/// One photo by id.
public protocol GetPhotoUseCase: Sendable {
    func photo(id: Int) async throws(PhotoError) -> Hit
}

/// A photo by its id, which is positive.
public struct GetPhoto: GetPhotoUseCase {
    let source: any PhotoDataSource

    public init(source: any PhotoDataSource) {
        self.source = source
    }

    public func photo(id: Int) async throws(PhotoError) -> Hit {
        guard id > 0 else { throw PhotoError.notFound(id: id) }
        return try await source.photo(id: id)
    }
}
