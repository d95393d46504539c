/// One photo of a search (seed 001's `Hit`), with the API's own field names.
public struct Hit: Codable, Sendable, Equatable, Identifiable {
    public let id: Int
    public let pageURL: String
    public let type: String
    public let tags: String
    public let previewURL: String
    public let previewWidth: Int
    public let previewHeight: Int
    public let webformatURL: String
    public let webformatWidth: Int
    public let webformatHeight: Int
    public let largeImageURL: String
    public let imageWidth: Int
    public let imageHeight: Int
    public let imageSize: Int
    public let views: Int
    public let downloads: Int
    public let collections: Int
    public let likes: Int
    public let comments: Int
    public let userID: Int
    public let user: String
    public let userImageURL: String

    enum CodingKeys: String, CodingKey {
        case id, pageURL, type, tags, previewURL, previewWidth, previewHeight, webformatURL, webformatWidth, webformatHeight
        case largeImageURL, imageWidth, imageHeight, imageSize, views, downloads, collections, likes, comments, user, userImageURL
        case userID = "user_id"
    }
}

/// One page of a search (seed 001's `PhotoResult`).
public struct PhotoResult: Codable, Sendable, Equatable {
    /// Every match the service knows of.
    public let total: Int
    /// The matches it lets you page through.
    public let totalHits: Int
    public let hits: [Hit]

    public init(total: Int, totalHits: Int, hits: [Hit]) {
        self.total = total
        self.totalHits = totalHits
        self.hits = hits
    }
}

/// A page request.
public struct PhotoQuery: Sendable, Equatable {
    public let text: String
    public let page: Int
    public let perPage: Int

    public init(text: String, page: Int, perPage: Int) {
        self.text = text
        self.page = page
        self.perPage = perPage
    }

    /// How many pages `result` spans at this page size.
    public func pageCount(of result: PhotoResult) -> Int {
        max(1, (result.totalHits + perPage - 1) / perPage)
    }
}
