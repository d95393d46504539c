/// One photo of a search: the domain's entity. Written as JSON (`photos
/// search --json`) with the API's field names; read from a service's page in Data
/// (`PixabayPage`), which maps the wire format onto it.
public struct Hit: Encodable, Sendable, Equatable, Identifiable {
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

    public init(
        id: Int, pageURL: String, type: String, tags: String, previewURL: String, previewWidth: Int, previewHeight: Int,
        webformatURL: String, webformatWidth: Int, webformatHeight: Int, largeImageURL: String, imageWidth: Int, imageHeight: Int,
        imageSize: Int, views: Int, downloads: Int, collections: Int, likes: Int, comments: Int, userID: Int, user: String,
        userImageURL: String
    ) {
        self.id = id
        self.pageURL = pageURL
        self.type = type
        self.tags = tags
        self.previewURL = previewURL
        self.previewWidth = previewWidth
        self.previewHeight = previewHeight
        self.webformatURL = webformatURL
        self.webformatWidth = webformatWidth
        self.webformatHeight = webformatHeight
        self.largeImageURL = largeImageURL
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.imageSize = imageSize
        self.views = views
        self.downloads = downloads
        self.collections = collections
        self.likes = likes
        self.comments = comments
        self.userID = userID
        self.user = user
        self.userImageURL = userImageURL
    }

    enum CodingKeys: String, CodingKey {
        case id, pageURL, type, tags, previewURL, previewWidth, previewHeight, webformatURL, webformatWidth, webformatHeight
        case largeImageURL, imageWidth, imageHeight, imageSize, views, downloads, collections, likes, comments, user, userImageURL
        case userID = "user_id"
    }
}

/// One page of a search.
public struct PhotoResult: Encodable, Sendable, Equatable {
    /// Every match the service knows of.
    public let total: Int
    /// The matches it lets you page through.
    public let totalHits: Int
    public let hits: [Hit]
    /// Whom the images are from, when the source's terms ask to say so wherever results are
    /// shown (Pixabay's do); not part of the JSON.
    public let attribution: Attribution?

    public init(total: Int, totalHits: Int, hits: [Hit], attribution: Attribution? = nil) {
        self.total = total
        self.totalHits = totalHits
        self.hits = hits
        self.attribution = attribution
    }

    enum CodingKeys: String, CodingKey {
        case total, totalHits, hits
    }
}

/// The name and link a source's terms ask results to show.
public struct Attribution: Sendable, Equatable {
    public let name: String
    public let link: String

    public init(name: String, link: String) {
        self.name = name
        self.link = link
    }
}

/// A page request.
public struct PhotoQuery: Sendable, Equatable {
    public let text: String
    public let page: Int
    public let perPage: Int
    /// The language the query is in (the app's: `en`, `fr`, …).
    public let language: String
    /// Whether results suitable for all ages only are asked for.
    public let safeSearch: Bool

    public init(text: String, page: Int, perPage: Int, language: String = "en", safeSearch: Bool = true) {
        self.text = text
        self.page = page
        self.perPage = perPage
        self.language = language
        self.safeSearch = safeSearch
    }

    /// How many pages `result` spans at this page size.
    public func pageCount(of result: PhotoResult) -> Int {
        max(1, (result.totalHits + perPage - 1) / perPage)
    }
}
