import PhotosDomain
import Synchronization
import Testing

/// The search use case's rules, on a test double of the data source: the Domain holds the
/// rules, so they hold whatever the source.
@Suite struct SearchPhotosTests {
    /// A source that records the queries it gets and answers with `total` matches.
    final class RecordingSource: PhotoDataSource {
        let queries = Mutex<[PhotoQuery]>([])
        let total: Int

        init(total: Int = 10) { self.total = total }

        func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
            queries.withLock { $0.append(query) }
            return PhotoResult(total: total, totalHits: total, hits: [])
        }

        func photo(id: Int) async throws(PhotoError) -> Hit { throw PhotoError.notFound(id: id) }
    }

    @Test func aQueryIsTrimmedClampedAndCarriesThePersonsChoices() async throws {
        let source = RecordingSource()
        let search = SearchPhotos(source: source) { SearchPreferences(language: "el", safeSearch: false) }
        _ = try await search.search(PhotoQuery(text: "  harbour ", page: 0, perPage: 500))
        #expect(
            source.queries.withLock { $0 }
                == [PhotoQuery(text: "harbour", page: 1, perPage: 200, language: "el", safeSearch: false)])
        _ = try await search.search(PhotoQuery(text: "x", page: 1, perPage: 1))
        #expect(source.queries.withLock { $0.last?.perPage } == 3)
    }

    @Test func badQueriesNeverReachTheSource() async throws {
        let source = RecordingSource()
        let search = SearchPhotos(source: source)
        await #expect(throws: PhotoError.emptyQuery) { try await search.search(PhotoQuery(text: " \t ", page: 1, perPage: 20)) }
        await #expect(throws: PhotoError.queryTooLong(limit: 100)) {
            try await search.search(PhotoQuery(text: String(repeating: "a", count: 101), page: 1, perPage: 20))
        }
        #expect(source.queries.withLock { $0 }.isEmpty)
        _ = try await search.search(PhotoQuery(text: String(repeating: "a", count: 100), page: 1, perPage: 20))
        #expect(source.queries.withLock { $0 }.count == 1, "exactly 100 characters is allowed")
    }

    @Test func aPagePastTheLastIsAnError() async throws {
        let search = SearchPhotos(source: RecordingSource(total: 10))
        _ = try await search.search(PhotoQuery(text: "a", page: 4, perPage: 3))
        await #expect(throws: PhotoError.pageOutOfRange(page: 5, pages: 4)) {
            try await search.search(PhotoQuery(text: "a", page: 5, perPage: 3))
        }
    }

    @Test func aPhotoIdIsPositive() async throws {
        await #expect(throws: PhotoError.notFound(id: 0)) { try await GetPhoto(source: RecordingSource()).photo(id: 0) }
    }
}
