import FoundationEssentials
import Glibc
import ModuleKit
import PhotosDomain

/// The state of a search and what screens and commands do with it: the use cases come from
/// the locator; network work stays out of views.
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
        self.query = PhotoQuery(text: query.text.trimmingSpaces(), page: max(1, page), perPage: query.perPage)
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
    ///
    /// - Parameters:
    ///   - replacing: Replace a file of that name (else ``PhotoError/fileExists(_:)``).
    ///   - creatingFolder: Create `folder` and its parents (else ``PhotoError/folderMissing(_:)``).
    /// Both are checked before anything is downloaded.
    public func download(
        _ hit: Hit, to folder: String, replacing: Bool = false, creatingFolder: Bool = false,
        progress: (@Sendable (Int64, Int64?) -> Void)? = nil
    ) throws(PhotoError) -> String {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(Self.fileName(of: hit)).path
        var isFolder = false
        if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard creatingFolder else { throw PhotoError.folderMissing(folder) }
        } else if !isFolder {
            throw PhotoError.storage("'\(folder)' is not a folder")
        }
        if !replacing, FileManager.default.fileExists(atPath: path) { throw PhotoError.fileExists(path) }
        let download = downloadPhoto
        let bytes = try waitFor { () async throws(PhotoError) -> [UInt8] in try await download.image(of: hit, progress: progress) }
        if creatingFolder {
            do {
                // 0777 less the umask: a folder the person asked for.
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                // The system's reason (`No such file or directory`), as the kit words a failed write.
                let code = ((error as? CocoaError)?.underlying as? POSIXError)?.code.rawValue
                throw PhotoError.storage("'\(folder)': " + (code.map { String(cString: strerror($0)) } ?? "\(error)"))
            }
        }
        try SavedFile.write(bytes, to: path, replacing: replacing)
        return path
    }

    /// `<id>.<ext>`, the extension taken from the image's URL when it is an image's.
    static func fileName(of hit: Hit) -> String {
        let fileExtension = URL(string: hit.largeImageURL)?.pathExtension.lowercased() ?? ""
        return "\(hit.id)." + (["jpg", "jpeg", "png", "gif", "webp"].contains(fileExtension) ? fileExtension : "jpg")
    }
}
