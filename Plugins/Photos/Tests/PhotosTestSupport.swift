import Foundation
import ModuleKit
import ModuleKitTesting
import PhotoPages
import PhotosDomain

@testable import PhotosFeature

/// A page in the API's documented format (shared with the benchmark).
func apiPage(ids: [Int], total: Int, totalHits: Int? = nil) -> String {
    PhotoPages.page(ids: ids, total: total, totalHits: totalHits)
}

func temporaryFolder() -> String {
    let path = NSTemporaryDirectory() + "photos-tests-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Photos' storage folder in the data folder `dataFolder` (a new one by default).
func storageFolder(_ dataFolder: String = temporaryFolder()) throws -> StorageFolder {
    try ModuleStorage(dataFolder: dataFolder, module: "Photos").files()
}

func pixabay(_ server: LoopbackHTTPServer, timeout: TimeInterval = 30, maximumBytes: Int = 1 << 20) throws -> PixabayDataSource {
    guard let url = URL(string: server.baseURL + "/api/") else { throw ServerError.bad }
    return PixabayDataSource(
        baseURL: url, apiKey: "TOPSECRET", http: HTTPClient(timeout: timeout, maximumResponseBytes: maximumBytes),
        cache: ResponseCache(folder: try storageFolder()))
}

enum ServerError: Error { case bad }

/// The shipped catalog, beside the test executable.
var shippedCatalog: String { ProcessLocation.executableFolder + "/" + PhotosModule.catalogFile }
