import Foundation
import ModuleKit
import ModuleKitTesting
import PhotoPages
import PhotosDomain
import PhotosFeature
import TestSupport

/// Photos: decoding a 200-hit page (time, and allocations counted by valgrind when present),
/// the image cache's memory hit against a miss, and a page search end to end against a
/// server on loopback.
struct PhotosBenchmark {
    let rounds: Int

    static let page = Data(PhotoPages.page(ids: Array(1...200), total: 5000, totalHits: 500, tags: "cat, pet, animal").utf8)

    static func decodePages(_ count: Int) {
        var sink = 0
        for _ in 0..<count { sink &+= (try? PixabayPageDecoder.result(from: page))?.hits.count ?? 0 }
        consume(sink)
    }

    func run(into report: BenchReport) {
        var samples: [Double] = []
        for _ in 0..<(rounds * 3) {
            let start = now()
            _ = try? PixabayPageDecoder.result(from: Self.page)
            samples.append(Double(now() - start))
        }
        report.add("photos: decode a 200-hit page (\(Self.page.count / 1024) KB)", format(milliseconds: median(samples)) + allocations())
        cache(into: report)
        search(into: report)
    }

    /// Allocations of one decode: valgrind's heap count for 2 decodes minus 1.
    private func allocations() -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") else { return "" }
        func count(_ pages: Int) -> Int? {
            let text = output(of: "/usr/bin/valgrind", ["--log-fd=1", buildFolder + "/modhost-bench", "--decode-pages", "\(pages)"])
            guard let line = text.split(separator: "\n").first(where: { $0.contains("total heap usage") }) else { return nil }
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(of: "usage:"), index + 1 < words.count else { return nil }
            return Int(words[index + 1].replacingOccurrences(of: ",", with: ""))
        }
        guard let one = count(1), let two = count(2) else { return "" }
        return ", \(two - one) allocations"
    }

    private func cache(into report: BenchReport) {
        let bytes = [UInt8](repeating: 9, count: 200_000)
        let data = NSTemporaryDirectory() + "modhost-bench-images-" + UUID().uuidString
        guard let folder = try? ModuleStorage(dataFolder: data, module: "Photos").files()
        else { return }
        let images = ImageCache(folder: folder) { _, _ throws(PhotoError) in bytes }
        let count = rounds * 10
        // Measured inside one task: the actor calls, not the sync-to-async bridge.
        let (hits, misses) =
            (try? waitFor { () async throws(PhotoError) -> ([Double], [Double]) in
                var hits: [Double] = []
                var misses: [Double] = []
                for index in 0..<count {
                    let url = URL(fileURLWithPath: "/bench/\(index).jpg")
                    let missStart = now()
                    _ = try await images.data(for: url)
                    misses.append(Double(now() - missStart))
                    let hitStart = now()
                    _ = try await images.data(for: url)
                    hits.append(Double(now() - hitStart))
                }
                return (hits, misses)
            }) ?? ([], [])
        report.add("photos: image cache, memory hit (200 KB)", String(format: "%.1f µs", median(hits) / 1_000))
        report.add("photos: image cache, miss (fetch + atomic disk write)", String(format: "%.1f µs", median(misses) / 1_000))
    }

    private func search(into report: BenchReport) {
        let page = Self.page
        guard let server = try? LoopbackHTTPServer(handler: { _ in LoopbackHTTPServer.Response(body: [UInt8](page)) }) else { return }
        defer { server.stop() }
        let config = NSTemporaryDirectory() + "modhost-bench-photos.json"
        let json =
            #"{"searchPaths": ["\#(buildFolder)"], "modules": [{"name": "Photos", "enabled": true, "config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "bench", "perPage": 200}}]}"#
        _ = FileManager.default.createFile(atPath: config, contents: Data(json.utf8))
        var samples: [Double] = []
        for index in 0..<rounds {
            // A new query each time: the 24 h response cache must not answer.
            setenv("MODHOST_DATA_DIR", NSTemporaryDirectory() + "modhost-bench-photos-data", 1)
            samples.append(timeProcess(buildFolder + "/modhost", ["--config", config, "photos", "search", "cat\(index)", "--json"]))
        }
        unsetenv("MODHOST_DATA_DIR")
        report.add("photos: search a 200-hit page on loopback, end to end", format(milliseconds: median(samples)))
    }
}
