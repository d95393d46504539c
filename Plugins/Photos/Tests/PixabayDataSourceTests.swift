import Foundation
import ModuleKit
import ModuleKitTesting
import PhotosDomain
import Testing

@testable import PhotosFeature

/// The API source against a real server on loopback: pages, and every failure a specific error.
@Suite struct PixabayDataSourceTests {
    @Test func decodesTheAPIsFieldNamesAndAsksForThePage() async throws {
        let server = try LoopbackHTTPServer { _ in .json(apiPage(ids: [7, 8], total: 500, totalHits: 60)) }
        defer { server.stop() }
        let result = try await pixabay(server).search(PhotoQuery(text: "black cat", page: 2, perPage: 20))
        #expect(result.total == 500)
        #expect(result.totalHits == 60)
        #expect(result.hits.map(\.id) == [7, 8])
        #expect(result.hits[0].userID == 42)
        #expect(result.hits[0].largeImageURL == "https://cdn.example/7_1280.jpg")
        #expect(server.received == ["/api/?key=TOPSECRET&q=black%20cat&lang=en&safesearch=true&page=2&per_page=20"])
        #expect(PhotoQuery(text: "x", page: 1, perPage: 20).pageCount(of: result) == 3)
    }

    @Test func answersAreCachedForADayWithoutTheKey() async throws {
        let server = try LoopbackHTTPServer { _ in .json(apiPage(ids: [1], total: 1)) }
        defer { server.stop() }
        let source = try pixabay(server)
        _ = try await source.search(PhotoQuery(text: "sea", page: 1, perPage: 3))
        _ = try await source.search(PhotoQuery(text: "sea", page: 1, perPage: 3))
        #expect(server.received.count == 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: source.cache.folder.path)
        #expect(files.count == 1)
        let cached = try String(contentsOfFile: source.cache.folder.path + "/" + files[0], encoding: .utf8)
        #expect(!cached.contains("TOPSECRET"))
    }

    @Test func anEmptyResultIsAPage() async throws {
        let server = try LoopbackHTTPServer { _ in .json(#"{"total": 0, "totalHits": 0, "hits": []}"#) }
        defer { server.stop() }
        #expect(try await pixabay(server).search(PhotoQuery(text: "zzz", page: 1, perPage: 20)).hits.isEmpty)
    }

    @Test(arguments: [
        (
            400, #"[ERROR 400] "page" is out of valid range."#,
            PhotoError.rejected(status: 400, message: #""page" is out of valid range."#)
        ),
        (500, #"{"message": "database down"}"#, .rejected(status: 500, message: "database down")),
    ])
    func refusalsCarryTheServersMessage(status: Int, body: String, expected: PhotoError) async throws {
        let server = try LoopbackHTTPServer { _ in .json(body, status: status) }
        defer { server.stop() }
        await #expect(throws: expected) { try await pixabay(server).search(PhotoQuery(text: "cat", page: 99, perPage: 20)) }
    }

    @Test func rateLimitsSayWhenToRetryAndTheKeyNeverShows() async throws {
        let server = try LoopbackHTTPServer { _ in
            var response = LoopbackHTTPServer.Response.json("Too many requests", status: 429)
            response.headers["X-RateLimit-Reset"] = "17"
            return response
        }
        defer { server.stop() }
        await #expect(throws: PhotoError.rateLimited(retryAfter: 17)) {
            try await pixabay(server).search(PhotoQuery(text: "cat", page: 1, perPage: 20))
        }
        let english = try photoStrings()
        #expect(
            PhotoError.rateLimited(retryAfter: 17).message(english) == "Too many requests to the photo service; try again in 17 seconds.")
    }

    @Test(arguments: [
        (#"{"total": 1, "totalHits": 1, "hits": [{"id": 1}]}"#, PageProblem(field: "hits[0].tags", kind: .missing)),
        ("<html>gateway</html>", PageProblem(field: "", kind: .notJSON)),
        (#"{"total": 3, "totalHits": 3, "hits": ["#, PageProblem(field: "", kind: .notJSON)),
        (#"{"total": 3, "totalHits": 3}"#, PageProblem(field: "hits", kind: .missing)),
    ])
    func malformedOrTruncatedAnswersNameWhatIsWrong(body: String, problem: PageProblem) async throws {
        let server = try LoopbackHTTPServer { _ in .json(body) }
        defer { server.stop() }
        await #expect(throws: PhotoError.unexpectedPage(problem)) {
            try await pixabay(server).search(PhotoQuery(text: "cat", page: 1, perPage: 20))
        }
    }

    @Test func aStallingServerTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in
            var response = LoopbackHTTPServer.Response.json(apiPage(ids: [1], total: 1))
            response.stallBeforeBody = 4
            return response
        }
        defer { server.stop() }
        let source = try pixabay(server, timeout: 1)
        await #expect(throws: PhotoError.timeout("\(server.baseURL)/api/?key=***&q=cat&lang=en&safesearch=true&page=1&per_page=20")) {
            try await source.search(PhotoQuery(text: "cat", page: 1, perPage: 20))
        }
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        let source = try pixabay(server)
        server.stop()
        await #expect(throws: PhotoError.unreachable("\(server.baseURL)/api/?key=***&q=cat&lang=en&safesearch=true&page=1&per_page=20")) {
            try await source.search(PhotoQuery(text: "cat", page: 1, perPage: 20))
        }
    }

    @Test func anOversizedAnswerIsRefused() async throws {
        let server = try LoopbackHTTPServer { _ in .json(apiPage(ids: Array(1...200), total: 200)) }
        defer { server.stop() }
        await #expect(throws: PhotoError.tooLarge(limitKB: 8)) {
            try await pixabay(server, maximumBytes: 8 * 1024).search(PhotoQuery(text: "cat", page: 1, perPage: 200))
        }
    }
}

func photoStrings(locale: String = "en") throws -> ModuleStrings {
    let harness = ModuleTestHarness(PhotosModule.self)
    harness.locale.set(locale)
    return try harness.loadStrings()
}
