import Foundation
import ModuleKit
import ModuleKitTesting
import Synchronization
import TestSupport
import Testing

struct Page: Decodable, Equatable {
    let total: Int
    let items: [String]
}

/// The HTTP client against a real server on loopback: every failure is a specific error.
@Suite struct HTTPClientTests {
    func get(_ response: LoopbackHTTPServer.Response, client: HTTPClient = HTTPClient()) async throws -> Result<Page, HTTPError> {
        let server = try LoopbackHTTPServer { _ in response }
        defer { server.stop() }
        let url = server.baseURL + "/api/?key=SECRET&q=cats"
        do {
            return .success(try await client.get(url, as: Page.self))
        } catch {
            return .failure(error)
        }
    }

    func error(_ result: Result<Page, HTTPError>) -> HTTPError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    @Test func decodesAPage() async throws {
        #expect(try await get(.json(#"{"total": 2, "items": ["a", "b"]}"#)) == .success(Page(total: 2, items: ["a", "b"])))
    }

    @Test(arguments: [
        (
            400, #"{"message": "[ERROR 400] \"page\" is out of valid range."}"#, HTTPError.Kind.status(400),
            "[ERROR 400] \"page\" is out of valid range."
        ),
        (500, "Internal failure, sorry", .status(500), "Internal failure, sorry"),
        (404, "", .status(404), ""),
    ])
    func statusErrorsCarryTheServersMessage(status: Int, body: String, kind: HTTPError.Kind, detail: String) async throws {
        let failure = error(try await get(.json(body, status: status)))
        #expect(failure?.kind == kind)
        #expect(failure?.detail == detail)
        #expect(failure?.url.contains("key=***") == true)
        #expect(failure?.url.contains("SECRET") == false)
    }

    @Test func rateLimitsSayWhenToRetry() async throws {
        var response = LoopbackHTTPServer.Response.json(#"{"error": "slow down"}"#, status: 429)
        response.headers["Retry-After"] = "42"
        #expect(error(try await get(response))?.kind == .rateLimited(retryAfter: 42))
        #expect(error(try await get(.json("{}", status: 429)))?.kind == .rateLimited(retryAfter: nil))
    }

    @Test(arguments: [#"{"total": "two"}"#, "not json", "{\"total\": 2, \"items\": [\"a\""])
    func malformedBodiesAreUndecodable(body: String) async throws {
        #expect(error(try await get(.json(body)))?.kind == .undecodable)
    }

    @Test func aTruncatedBodyIsAnError() async throws {
        var response = LoopbackHTTPServer.Response.json(#"{"total": 2, "items": ["a", "b"]}"#)
        response.truncateAfter = 10
        let kind = error(try await get(response))?.kind
        #expect(kind == .connectionLost || kind == .undecodable)
    }

    @Test func aStallingServerTimesOut() async throws {
        var response = LoopbackHTTPServer.Response.json(#"{"total": 0, "items": []}"#)
        response.stallBeforeBody = 4
        let client = HTTPClient(timeout: 0.5)
        #expect(client.timeout == 1, "sub-second timeouts round up to a second")
        let stalling = response
        let server = try LoopbackHTTPServer { _ in stalling }
        defer { server.stop() }
        do {
            let page = try await client.get(server.baseURL + "/p", as: Page.self)
            Issue.record("a stalled body was read: \(page)")
        } catch {
            #expect(error.kind == .timeout)
        }
        // A timeout of the request the server holds, not a failure before it was sent.
        #expect(server.received == ["/p"])
    }

    @Test func aRefusedConnectionCannotConnect() async throws {
        let server = try LoopbackHTTPServer { _ in .json("{}") }
        let url = server.baseURL + "/"
        server.stop()
        let failure = await #expect(throws: HTTPError.self) { try await HTTPClient().data(from: url) }
        #expect(failure?.kind == .cannotConnect)
    }

    @Test func anOversizedBodyIsRefused() async throws {
        let big = LoopbackHTTPServer.Response(body: [UInt8](repeating: 65, count: 100_000))
        #expect(error(try await get(big, client: HTTPClient(maximumResponseBytes: 10_000)))?.kind == .tooLarge(limit: 10_000))
    }

    @Test func notHTTPIsAnInvalidURL() async throws {
        let url = "file:///etc/passwd"
        let failure = await #expect(throws: HTTPError.self) { try await HTTPClient().data(from: url) }
        #expect(failure?.kind == .invalidURL)
    }

    @Test func progressIsReported() async throws {
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(body: [UInt8](repeating: 1, count: 200_000)) }
        defer { server.stop() }
        let url = server.baseURL + "/image.png"
        let seen = Mutex<[Int64]>([])
        let data = try await HTTPClient().data(from: url) { received, _ in seen.withLock { $0.append(received) } }
        #expect(data.count == 200_000)
        #expect(seen.withLock { $0.last } == 200_000)
    }
}
