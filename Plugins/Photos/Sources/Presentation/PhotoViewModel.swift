import Foundation
import ModuleKit

/// The state of a search and what screens and commands do with it (seed 001's
/// `PhotoViewModel`): the use cases come from the locator; network work stays out of views.
public final class PhotoViewModel {
    @Injected var searchPhotos: any SearchPhotosUseCase
    @Injected var getPhoto: any GetPhotoUseCase
    @Injected var downloadPhoto: any DownloadPhotoUseCase

    public private(set) var query: PhotoQuery?
    public private(set) var result: PhotoResult?

    public init(resolver: ModuleResolver) throws {
        _searchPhotos = try Injected(resolver)
        _getPhoto = try Injected(resolver)
        _downloadPhoto = try Injected(resolver)
    }

    /// Loads page `page` of `text`.
    public func search(_ text: String, page: Int = 1, perPage: Int) throws(PhotoError) -> PhotoResult {
        let query = PhotoQuery(text: text, page: page, perPage: perPage)
        let search = searchPhotos
        let result = try waitFor { () async throws(PhotoError) -> PhotoResult in try await search.search(query) }
        self.query = PhotoQuery(text: query.text.trimmingCharacters(in: .whitespaces), page: max(1, page), perPage: query.perPage)
        self.result = result
        return result
    }

    public var pageCount: Int {
        guard let query, let result else { return 0 }
        return query.pageCount(of: result)
    }

    public var hasNextPage: Bool { (query?.page ?? 0) < pageCount }
    public var hasPreviousPage: Bool { (query?.page ?? 1) > 1 }

    public func turnPage(by offset: Int) throws(PhotoError) -> PhotoResult? {
        guard let query else { return nil }
        return try search(query.text, page: query.page + offset, perPage: query.perPage)
    }

    public func photo(id: Int) throws(PhotoError) -> Hit {
        let get = getPhoto
        return try waitFor { () async throws(PhotoError) -> Hit in try await get.photo(id: id) }
    }

    /// Saves the photo's large image in `folder` as `<id>.<ext>`; returns the file's path.
    public func download(_ hit: Hit, to folder: String, progress: (@Sendable (Int64, Int64?) -> Void)? = nil) throws(PhotoError) -> String {
        let download = downloadPhoto
        let bytes = try waitFor { () async throws(PhotoError) -> [UInt8] in try await download.image(of: hit, progress: progress) }
        let fileExtension = URL(string: hit.largeImageURL)?.pathExtension.lowercased() ?? ""
        let name = "\(hit.id)." + (["jpg", "jpeg", "png", "gif", "webp"].contains(fileExtension) ? fileExtension : "jpg")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw PhotoError.storage("'\(folder)' is not a folder")
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw PhotoError.storage("\(error)")
        }
        return path
    }
}
