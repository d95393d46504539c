import Foundation
import ModuleKit
import ModuleKitNetworking
import TestSupport

@testable import PhotosFeature

/// A page in the API's format, with the API's field names (`user_id`, …).
func apiPage(ids: [Int], total: Int, totalHits: Int? = nil) -> String {
    let hits = ids.map { id in
        """
        {"id": \(id), "pageURL": "https://pixabay.com/photos/\(id)/", "type": "photo", "tags": "cat, pet",
         "previewURL": "https://cdn.example/\(id)_150.jpg", "previewWidth": 150, "previewHeight": 100,
         "webformatURL": "https://cdn.example/\(id)_640.jpg", "webformatWidth": 640, "webformatHeight": 427,
         "largeImageURL": "https://cdn.example/\(id)_1280.jpg", "imageWidth": 4000, "imageHeight": 2667, "imageSize": 2345678,
         "views": 1000, "downloads": 500, "collections": 12, "likes": 34, "comments": 5,
         "user_id": 42, "user": "Mira", "userImageURL": "https://cdn.example/u42.png"}
        """
    }
    return #"{"total": \#(total), "totalHits": \#(totalHits ?? total), "hits": [\#(hits.joined(separator: ","))]}"#
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
