import Foundation
import ModuleKit
import ModuleKitTesting
import PhotosDomain
import Testing

@testable import PhotosFeature

/// The use cases on the real Data: the shipped catalog and the image cache, as the module
/// wires them; and Photos as the host runs it.
@MainActor
@Suite struct PhotoRepositoryTests {
    struct Photos {
        let search: SearchPhotos
        let get: GetPhoto
        let download: DownloadPhoto

        func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult { try await search.search(query) }
        func photo(id: Int) async throws(PhotoError) -> Hit { try await get.photo(id: id) }
        func image(of hit: Hit, progress: (@Sendable (Int64, Int64?) -> Void)?) async throws(PhotoError) -> [UInt8] {
            try await download.image(of: hit, progress: progress)
        }
    }

    func repository(catalog: String = shippedCatalog) throws -> Photos {
        let source = PhotoSources(CatalogDataSource(path: catalog))
        let images = CachedImages(cache: ImageCache(folder: try storageFolder(), fetch: CachedImages.fetcher(http: HTTPClient())))
        return Photos(search: SearchPhotos(source: source), get: GetPhoto(source: source), download: DownloadPhoto(images: images))
    }

    @Test func pagesThroughTheCatalog() async throws {
        let photos = try repository()
        let first = try await photos.search(PhotoQuery(text: "city", page: 1, perPage: 3))
        #expect(first.totalHits == 4)
        #expect(first.hits.map(\.id) == [106, 107, 108])
        let second = try await photos.search(PhotoQuery(text: "CITY", page: 2, perPage: 3))
        #expect(second.hits.map(\.id) == [112])
        await #expect(throws: PhotoError.pageOutOfRange(page: 3, pages: 2)) {
            try await photos.search(PhotoQuery(text: "city", page: 3, perPage: 3))
        }
        #expect(try await photos.search(PhotoQuery(text: "unicorn", page: 1, perPage: 20)).hits.isEmpty)
    }

    /// A plural finds the tags in the singular, as the API's search does: the README's first
    /// search, "cats", finds the catalog's cats.
    @Test func aPluralFindsTheSingularTag() async throws {
        let photos = try repository()
        let cats = try await photos.search(PhotoQuery(text: "cats", page: 1, perPage: 20))
        let cat = try await photos.search(PhotoQuery(text: "cat", page: 1, perPage: 20))
        #expect(!cat.hits.isEmpty && cats.hits.map(\.id) == cat.hits.map(\.id))
        #expect(CatalogDataSource.singular("puppies") == "puppy" && CatalogDataSource.singular("foxes") == "fox")
        #expect(CatalogDataSource.singular("glass") == "glass" && CatalogDataSource.singular("bus") == "bus")
    }

    @Test func refusesBadQueries() async throws {
        let photos = try repository()
        await #expect(throws: PhotoError.emptyQuery) { try await photos.search(PhotoQuery(text: "  ", page: 1, perPage: 20)) }
        await #expect(throws: PhotoError.queryTooLong(limit: 100)) {
            try await photos.search(PhotoQuery(text: String(repeating: "a", count: 101), page: 1, perPage: 20))
        }
        await #expect(throws: PhotoError.notFound(id: 999)) { try await photos.photo(id: 999) }
    }

    @Test func downloadsACatalogImage() async throws {
        let photos = try repository()
        let hit = try await photos.photo(id: 104)
        let bytes = try await photos.image(of: hit, progress: nil)
        #expect(bytes.prefix(4) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func aBrokenCatalogIsAClearError() async throws {
        let path = temporaryFolder() + "/catalog.json"
        try Data(#"{"total": 1, "hits": [{"id": 1}]}"#.utf8).write(to: URL(fileURLWithPath: path))
        let photos = try repository(catalog: path)
        let problem = PhotoError.catalogNotAPage(path: path, PageProblem(field: "hits[0].tags", kind: .missing))
        await #expect(throws: problem) {
            try await photos.search(PhotoQuery(text: "a", page: 1, perPage: 3))
        }
        // Said of the catalog, in words, in each language; never a decoder's case name.
        #expect(try problem.message(photoStrings()) == "The photo catalog '\(path)' is not a page of photos: 'hits[0].tags' is missing.")
        #expect(
            try problem.message(photoStrings(locale: "fr"))
                == "Le catalogue de photos '\(path)' n’est pas une page de photos : 'hits[0].tags' manque.")
    }

    /// A file of JSON that is no object at all: said so, not "'' is not of the documented type".
    @Test func aCatalogThatIsNoObjectIsSaidSo() async throws {
        let path = temporaryFolder() + "/catalog.json"
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        let photos = try repository(catalog: path)
        do {
            _ = try await photos.search(PhotoQuery(text: "a", page: 1, perPage: 3))
            Issue.record("a list is no catalog")
        } catch {
            #expect(error.message(try photoStrings()) == "The photo catalog '\(path)' is not a page of photos: it is not a JSON object.")
        }
    }

    @Test func theModuleSearchesAndDownloadsThroughItsCommands() throws {
        let harness = ModuleTestHarness(PhotosModule.self)
        try harness.start(configuration: #"{"perPage": 3}"#)
        try harness.run("search", ["cat"])
        #expect(harness.terminal.output.contains("Page 1 of 1 (3 photos)\n  #101  cat, kitten, pet — Mira\n"))
        let folder = temporaryFolder()
        try harness.run("download", ["111", "--to", folder])
        #expect(FileManager.default.fileExists(atPath: folder + "/111.png"))
        #expect(throws: CommandUsageError.self) { try harness.run("search", ["cat", "--per-page", "500"]) }
        #expect(throws: CommandUsageError.self) { try harness.run("show", ["abc"]) }
    }

    @Test(arguments: [
        (#"{"source": "flickr"}"#, #"config.source is "flickr"; expected "catalog" or "pixabay""#),
        (#"{"perPage": 500}"#, "config.perPage is 500; expected a whole number from 3 to 200"),
        (#"{"baseURL": "ftp://x"}"#, #"config.baseURL is "ftp://x"; expected an http(s) URL"#),
    ])
    func aBadConfigIsRefusedByKey(json: String, message: String) throws {
        let harness = ModuleTestHarness(PhotosModule.self)
        #expect(throws: ConfigurationError(message: message)) { try harness.start(configuration: json) }
    }

    /// Every problem of one `config` at once, each with the value found.
    @Test func everyBadValueIsToldAtOnce() throws {
        let harness = ModuleTestHarness(PhotosModule.self)
        let error = #expect(throws: ConfigurationError.self) {
            try harness.start(configuration: #"{"source": "flickr", "perPage": 500, "sorce": "x", "catalog": 3}"#)
        }
        #expect(
            error?.problems == [
                #"config.catalog is 3; expected text (in quotes)"#,
                "config.sorce is not a setting; did you mean 'source'?",
                #"config.source is "flickr"; expected "catalog" or "pixabay""#,
                "config.perPage is 500; expected a whole number from 3 to 200",
            ])
    }
}

/// The shipped catalog keeps the page shape the API documents, and is read by the same
/// decoder as the service: the offline source and the real one cannot drift apart.
@MainActor
@Suite struct CatalogShapeTests {
    /// The documented fields of a hit.
    static let documented: Set<String> = [
        "id", "pageURL", "type", "tags", "previewURL", "previewWidth", "previewHeight", "webformatURL", "webformatWidth",
        "webformatHeight", "largeImageURL", "fullHDURL", "imageURL", "imageWidth", "imageHeight", "imageSize", "views", "downloads",
        "likes", "comments", "user_id", "user", "userImageURL",
    ]

    @Test func everyHitHasOnlyDocumentedFieldsAndAllTheAppNeeds() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: shippedCatalog))
        let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(page.keys) == ["total", "totalHits", "hits"])
        let hits = try #require(page["hits"] as? [[String: Any]])
        #expect(!hits.isEmpty)
        for hit in hits {
            #expect(Set(hit.keys).isSubset(of: Self.documented), "undocumented: \(Set(hit.keys).subtracting(Self.documented))")
            #expect(
                ["id", "tags", "user", "previewURL", "webformatURL", "largeImageURL", "imageWidth", "imageHeight"].allSatisfy {
                    hit[$0] != nil
                })
        }
        #expect(try PixabayPage.decode(data, addresses: .catalog).hits.count == hits.count)
    }
}
