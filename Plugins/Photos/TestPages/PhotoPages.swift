/// Pages of photos in the API's documented format, for the Photos tests and the benchmark
/// alike (so the benchmark measures what the tests check).
public enum PhotoPages {
    /// A page holding a hit for each of `ids`, with every documented field.
    public static func page(ids: [Int], total: Int, totalHits: Int? = nil, tags: String = "cat, pet") -> String {
        let hits = ids.map { id in
            """
            {"id": \(id), "pageURL": "https://pixabay.com/photos/\(id)/", "type": "photo", "tags": "\(tags)",
             "previewURL": "https://cdn.example/\(id)_150.jpg", "previewWidth": 150, "previewHeight": 100,
             "webformatURL": "https://cdn.example/\(id)_640.jpg", "webformatWidth": 640, "webformatHeight": 427,
             "largeImageURL": "https://cdn.example/\(id)_1280.jpg", "imageWidth": 4000, "imageHeight": 2667, "imageSize": 2345678,
             "views": 1000, "downloads": 500, "likes": 34, "comments": 5,
             "user_id": 42, "user": "Mira", "userImageURL": "https://cdn.example/u42.png"}
            """
        }
        return #"{"total": \#(total), "totalHits": \#(totalHits ?? total), "hits": [\#(hits.joined(separator: ","))]}"#
    }
}
