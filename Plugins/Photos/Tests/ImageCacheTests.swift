import Foundation
import ModuleKit
import ModuleKitTesting
import PhotosDomain
import Synchronization
import Testing

@testable import PhotosFeature

/// The image cache: LRU bounds in memory and on disk, one fetch for concurrent requests, and
/// no torn files.
@Suite struct ImageCacheTests {
    final class Counter: Sendable {
        let fetches = Mutex<[String]>([])
    }

    func cache(folder: String = temporaryFolder(), memory: Int = 1_000, disk: Int = 2_000, counter: Counter = Counter()) throws
        -> ImageCache
    {
        ImageCache(folder: try storageFolder(folder), memoryLimit: memory, diskLimit: disk) { url, _ throws(PhotoError) in
            counter.fetches.withLock { $0.append(url.lastPathComponent) }
            return [UInt8](repeating: UInt8(url.lastPathComponent.count), count: 400)
        }
    }

    func url(_ name: String) -> URL { URL(fileURLWithPath: "/images/" + name) }

    @Test func hitsMemoryThenDiskThenFetches() async throws {
        let counter = Counter()
        let folder = temporaryFolder()
        let first = try cache(folder: folder, counter: counter)
        _ = try await first.data(for: url("a.png"))
        _ = try await first.data(for: url("a.png"))
        #expect(counter.fetches.withLock { $0 } == ["a.png"])
        #expect(await first.isInMemory(url("a.png")))
        // A new process: the disk still has it.
        let second = try cache(folder: folder, counter: counter)
        #expect(try await second.data(for: url("a.png")).count == 400)
        #expect(counter.fetches.withLock { $0 }.count == 1)
    }

    @Test func evictsTheLeastRecentlyUsedWithinTheByteBounds() async throws {
        let counter = Counter()
        let images = try cache(memory: 1_000, disk: 1_300, counter: counter)
        for name in ["a.png", "b.png", "c.png"] { _ = try await images.data(for: url(name)) }
        // 400 bytes each: memory holds 2, disk holds 3 (1 200 ≤ 1 300).
        #expect(await images.usage.memory == 800)
        #expect(await !images.isInMemory(url("a.png")))
        _ = try await images.data(for: url("a.png"))  // from disk, becomes recent
        _ = try await images.data(for: url("d.png"))  // evicts the least recent on disk: b
        #expect(await images.usage.disk <= 1_300)
        _ = try await images.data(for: url("b.png"))
        #expect(counter.fetches.withLock { $0 } == ["a.png", "b.png", "c.png", "d.png", "b.png"])
    }

    @Test func concurrentRequestsForOneURLFetchOnce() async throws {
        let server = try LoopbackHTTPServer { _ in
            var response = LoopbackHTTPServer.Response(body: [UInt8](repeating: 7, count: 50_000))
            response.stallBeforeBody = 0.3
            return response
        }
        defer { server.stop() }
        let images = ImageCache(folder: try storageFolder(), fetch: CachedImages.fetcher(http: HTTPClient()))
        let target = try #require(URL(string: server.baseURL + "/big.jpg"))
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try await images.data(for: target).count } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sizes == Array(repeating: 50_000, count: 8))
        #expect(server.received == ["/big.jpg"])
        #expect(await images.fetchCount == 1)
    }

    @Test func aWriteThatNeverFinishedIsNeverServed() async throws {
        let folder = temporaryFolder()
        let key = try SHA256.hex(of: Array(url("x.png").absoluteString.utf8))
        // What a kill -9 during a write leaves: the temporary file only.
        let photos = try storageFolder(folder).path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: photos + "/." + key + ".partial-123"))
        let counter = Counter()
        let images = try cache(folder: folder, counter: counter)
        #expect(try await images.data(for: url("x.png")).count == 400)
        #expect(counter.fetches.withLock { $0 } == ["x.png"])
        let files = try FileManager.default.contentsOfDirectory(atPath: photos)
        #expect(files == [key])
    }

    @Test func aSavedFileIsThePersonsNeverOverwritesUnlessAskedAndIsWhole() throws {
        let folder = temporaryFolder()
        let path = folder + "/photo.png"
        try SavedFile.write([1, 1, 1], to: path, replacing: false)
        // 0666 less the process's umask: a picture, not a secret.
        let umaskLine = try String(contentsOfFile: "/proc/self/status", encoding: .utf8).split(separator: "\n").first {
            $0.hasPrefix("Umask:")
        }
        let mask = mode_t(umaskLine.flatMap { Int($0.split(separator: "\t").last ?? "", radix: 8) } ?? 0o022)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(mode_t((attributes[.posixPermissions] as? Int) ?? 0) == 0o666 & ~mask)
        #expect(throws: PhotoError.fileExists(path)) { try SavedFile.write([2, 2], to: path, replacing: false) }
        #expect(FileManager.default.contents(atPath: path) == Data([1, 1, 1]))
        try SavedFile.write([2, 2], to: path, replacing: true)
        #expect(FileManager.default.contents(atPath: path) == Data([2, 2]))
        #expect(throws: PhotoError.self) { try SavedFile.write([3], to: folder + "/missing/photo.png", replacing: false) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["photo.png"], "no temporary file left")
    }
}
