import FoundationEssentials
import PhotosDomain

/// A page of photos exactly as the Pixabay API documents it: the wire format, decoded here in
/// Data and mapped onto the domain's ``Hit`` and ``PhotoResult``.
///
/// The documentation says keys "may be returned in any random order and new keys may be added
/// at any time". So only what the app cannot work without is required: `hits`, and in each hit
/// its `id`, `tags`, `user`, and the preview, webformat and large image URLs with their sizes.
/// Counters, links and newer fields (`fullHDURL`, `imageURL`, flags) are optional, and unknown
/// keys are ignored. Strictness stays where it protects the user: the answer must be JSON, and
/// every image URL must be an http(s) address (or, in a local catalog, a path beside it).
struct PixabayPage: Decodable {
    let total: Int?
    let totalHits: Int?
    let hits: [PixabayHit]
}

/// One hit as documented (field names as the API spells them, `user_id` included).
struct PixabayHit: Decodable {
    let id: Int
    let tags: String
    let user: String
    let previewURL: String
    let previewWidth: Int
    let previewHeight: Int
    let webformatURL: String
    let webformatWidth: Int
    let webformatHeight: Int
    let largeImageURL: String
    let imageWidth: Int
    let imageHeight: Int
    let pageURL: String?
    let type: String?
    let imageSize: Int?
    let views: Int?
    let downloads: Int?
    let collections: Int?
    let likes: Int?
    let comments: Int?
    let userID: Int?
    let userImageURL: String?
    let fullHDURL: String?
    let imageURL: String?

    enum CodingKeys: String, CodingKey {
        case id, tags, user, previewURL, previewWidth, previewHeight, webformatURL, webformatWidth, webformatHeight
        case largeImageURL, imageWidth, imageHeight, pageURL, type, imageSize, views, downloads, collections, likes, comments
        case userImageURL, fullHDURL, imageURL
        case userID = "user_id"
    }

    /// The domain's hit; counters the service left out count as zero.
    var hit: Hit {
        Hit(
            id: id, pageURL: pageURL ?? "", type: type ?? "photo", tags: tags, previewURL: previewURL, previewWidth: previewWidth,
            previewHeight: previewHeight, webformatURL: webformatURL, webformatWidth: webformatWidth, webformatHeight: webformatHeight,
            largeImageURL: largeImageURL, imageWidth: imageWidth, imageHeight: imageHeight, imageSize: imageSize ?? 0, views: views ?? 0,
            downloads: downloads ?? 0, collections: collections ?? 0, likes: likes ?? 0, comments: comments ?? 0, userID: userID ?? 0,
            user: user, userImageURL: userImageURL ?? "")
    }
}

extension PixabayPage {
    /// Where image addresses may point.
    enum Addresses {
        /// A web service: http(s) only.
        case web
        /// A local catalog: http(s), or paths relative to the catalog file.
        case catalog
    }

    /// Decodes `data` strictly where it matters and tolerantly elsewhere.
    ///
    /// - Throws: ``PhotoError/unexpectedPage(_:)`` naming the field (`hits[0].largeImageURL`).
    static func decode(_ data: Data, addresses: Addresses) throws(PhotoError) -> PixabayPage {
        let page: PixabayPage
        do {
            page = try JSONDecoder().decode(PixabayPage.self, from: data)
        } catch let error as DecodingError {
            throw .unexpectedPage(PageProblem(error))
        } catch {
            throw .unexpectedPage(PageProblem(field: "", kind: .notJSON))
        }
        for (index, hit) in page.hits.enumerated() {
            for (name, address) in [
                ("previewURL", hit.previewURL), ("webformatURL", hit.webformatURL), ("largeImageURL", hit.largeImageURL),
            ]
            where !isAcceptable(address, addresses) {
                throw .unexpectedPage(PageProblem(field: "hits[\(index)].\(name)", kind: .notWebAddress))
            }
        }
        return page
    }

    /// The domain's page.
    var result: PhotoResult {
        let hits = self.hits.map(\.hit)
        return PhotoResult(total: total ?? hits.count, totalHits: totalHits ?? total ?? hits.count, hits: hits)
    }

    private static func isAcceptable(_ address: String, _ addresses: Addresses) -> Bool {
        if let url = URL(string: address), let scheme = url.scheme?.lowercased() {
            return (scheme == "http" || scheme == "https") && url.host != nil
        }
        return addresses == .catalog && !address.isEmpty && !address.hasPrefix("/")
    }
}

extension PageProblem {
    /// The problem a decoder found, with its coding path written as a person reads it.
    init(_ error: DecodingError) {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context): self.init(field: path(context.codingPath + [key]), kind: .missing)
        case .valueNotFound(_, let context): self.init(field: path(context.codingPath), kind: .missing)
        case .typeMismatch(_, let context): self.init(field: path(context.codingPath), kind: .wrongType)
        case .dataCorrupted(let context):
            self.init(field: path(context.codingPath), kind: context.codingPath.isEmpty ? .notJSON : .wrongType)
        @unknown default: self.init(field: "", kind: .notJSON)
        }
    }
}

/// Reads a page as the service sends it, for code outside the module that measures or checks
/// decoding (the benchmark).
public enum PixabayPageDecoder {
    public static func result(from data: Data) throws(PhotoError) -> PhotoResult {
        try PixabayPage.decode(data, addresses: .web).result
    }
}
