/// A photo's large image.
public protocol DownloadPhotoUseCase: Sendable {
    func image(of hit: Hit, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8]
}

/// The large image of a photo (the one a person downloads), through the image source.
public struct DownloadPhoto: DownloadPhotoUseCase {
    let images: any ImageSource

    public init(images: any ImageSource) {
        self.images = images
    }

    public func image(of hit: Hit, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8] {
        guard !hit.largeImageURL.isEmpty else { throw PhotoError.unexpectedPage(PageProblem(field: "largeImageURL", kind: .missing)) }
        return try await images.image(at: hit.largeImageURL, progress: progress)
    }
}
