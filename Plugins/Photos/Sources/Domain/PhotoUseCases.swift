/// Search photos page by page (seed 001's `PhotoUseCase`).
public protocol SearchPhotosUseCase: Sendable {
    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult
}

/// One photo by id.
public protocol GetPhotoUseCase: Sendable {
    func photo(id: Int) async throws(PhotoError) -> Hit
}

/// A photo's large image, through the image cache.
public protocol DownloadPhotoUseCase: Sendable {
    func image(of hit: Hit, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8]
}
