import Foundation
import ModuleHostTesting
import ModuleKitTesting
import Synchronization
import TestSupport
import Testing

/// Photos through the real binary: the catalog end to end, the API on loopback, Geo optional.
@Suite struct PhotosFlowTests {
    /// A world of ModuleHostTesting.
    func app(_ modules: [(String, String)]) throws -> TestHost {
        try TestHost(entries: modules)
    }

    func run(_ app: TestHost, _ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> CommandResult {
        try app.run(arguments: arguments, input: input, environment: environment)
    }

    @Test func theCatalogWorksWithNoNetworkAndNoKey() throws {
        let app = try app([("Photos", #""config": {"perPage": 3}"#)])
        let search = try run(app, ["photos", "search", "city", "--page", "2"])
        #expect(search.status == 0)
        #expect(search.stdout == "Page 2 of 2 (4 photos)\n  #112  athens, acropolis, city — Nikos\n")
        let show = try run(app, ["photos", "show", "104"])
        #expect(show.stdout.hasPrefix("#104 photo\nTags: mountain, snow, alps\n"))
        let folder = try TestEnvironment.temporaryFolder()
        let download = try run(app, ["photos", "download", "104", "--to", folder])
        #expect(download.status == 0)
        #expect(download.stdout == "Saved \(folder)/104.png\n")
        #expect(FileManager.default.contents(atPath: folder + "/104.png")?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let json = try run(app, ["photos", "search", "cat", "--json"])
        let page = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(page?["totalHits"] as? Int == 3)
        #expect((page?["hits"] as? [[String: Any]])?.first?["user_id"] as? Int == 11)
        let bad = try run(app, ["photos", "search", "cat", "--page", "0"])
        #expect(bad.status == 2)
    }

    @Test func searchAndDownloadThroughTheApp() throws {
        let app = try app([("Photos", #""config": {"perPage": 3}"#)])
        let folder = try TestEnvironment.temporaryFolder()
        // Home → Photos → Search "cat" → first photo → Download into folder → 0, 0, 0 → q.
        let result = try run(app, [], input: "1\n1\ncat\n1\n1\n\(folder)\n0\n0\n0\nq\n")
        #expect(result.status == 0)
        #expect(result.stdout.contains("Photos of “cat”"))
        #expect(result.stdout.contains("Page 1 of 1 (3 photos)"))
        #expect(result.stdout.contains("Saved \(folder)/101.png"))
        #expect(!result.stdout.contains("Photos of a saved place"), "Geo is not in this modules.json")
        #expect(result.stdout.hasSuffix("Goodbye.\n"))
    }

    @Test func photosOfASavedPlaceWhenGeoIsActive() throws {
        let app = try app([("Geo", ""), ("Photos", "")])
        #expect(try run(app, ["geo", "add", "--country", "FR", "--city", "Paris"]).status == 0)
        // Home (1 Places, 2 Photos) → Photos → 2 saved place → 1 Paris → 0, 0 → q.
        let result = try run(app, [], input: "2\n2\n1\n0\n0\nq\n")
        #expect(result.stdout.contains("  2. Photos of a saved place\n"))
        #expect(result.stdout.contains("  1. Paris, France\n"))
        #expect(result.stdout.contains("Photos of “Paris”"))
        #expect(result.stdout.contains("paris, eiffel tower, city — Camille (#107)"))
        let alone = try run(app, ["--only", "Photos"], input: "2\n0\nq\n")
        #expect(alone.stdout.contains("Photos\n======\n  1. Search photos\n  0 Back · q Quit\n"), "\(alone.stdout)")
        #expect(!alone.stdout.contains("saved place"))
        #expect(!alone.stdout.contains("Places"))
    }

    @Test func theAPIOnLoopbackEndToEnd() throws {
        let page =
            #"{"total": 1, "totalHits": 1, "hits": [{"id": 5, "pageURL": "p", "type": "photo", "tags": "sea", "previewURL": "https://cdn.example/p.jpg", "previewWidth": 1, "previewHeight": 1, "webformatURL": "https://cdn.example/w.jpg", "webformatWidth": 1, "webformatHeight": 1, "largeImageURL": "https://cdn.example/l.jpg", "imageWidth": 1, "imageHeight": 1, "imageSize": 1, "views": 1, "downloads": 1, "collections": 1, "likes": 1, "comments": 1, "user_id": 9, "user": "Nikos", "userImageURL": ""}]}"#
        let server = try LoopbackHTTPServer { target in
            target.contains("q=fail") ? .json(#"{"message": "boom"}"#, status: 500) : .json(page)
        }
        defer { server.stop() }
        let app = try app([("Photos", #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "SEKRIT"}"#)])
        let ok = try run(app, ["photos", "search", "sea"])
        #expect(ok.stdout == "Page 1 of 1 (1 photo)\n  #5  sea — Nikos\nImages from Pixabay: https://pixabay.com/\n")
        let failed = try run(app, ["photos", "search", "fail"])
        #expect(failed.status == 1)
        #expect(failed.stderr == "modhost: error: photos search: The photo service refused (HTTP 500): boom\n")
        #expect(!(failed.stdout + failed.stderr).contains("SEKRIT"))
        #expect(server.received.allSatisfy { $0.contains("key=SEKRIT") })
    }

    @Test func downloadShowsAProgressBarOnATerminal() throws {
        let image = [UInt8](repeating: 0xAB, count: 300_000)
        let port = Mutex<UInt16>(0)
        let server = try LoopbackHTTPServer { target in
            if target.hasPrefix("/img/") { return LoopbackHTTPServer.Response(body: image) }
            let base = "http://127.0.0.1:\(port.withLock { $0 })"
            return .json(
                #"{"total": 1, "totalHits": 1, "hits": [{"id": 77, "pageURL": "p", "type": "photo", "tags": "sea", "previewURL": "https://cdn.example/p.jpg", "previewWidth": 1, "previewHeight": 1, "webformatURL": "https://cdn.example/w.jpg", "webformatWidth": 1, "webformatHeight": 1, "largeImageURL": "\#(base)/img/77.jpg", "imageWidth": 1, "imageHeight": 1, "imageSize": 300000, "views": 1, "downloads": 1, "collections": 1, "likes": 1, "comments": 1, "user_id": 9, "user": "Nikos", "userImageURL": ""}]}"#
            )
        }
        defer { server.stop() }
        port.withLock { $0 = server.port }
        let app = try app([("Photos", #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "k"}"#)])
        let folder = try TestEnvironment.temporaryFolder()
        let command = "\(TestEnvironment.modhost) --config \(app.config) photos download 77 --to \(folder)"
        let tty = try TerminalProcess.run(command, environment: ["MODHOST_DATA_DIR": app.data])
        #expect(tty.stdout.contains("] 100%"))
        #expect(tty.stdout.contains("Saved \(folder)/77.jpg"))
        #expect(FileManager.default.contents(atPath: folder + "/77.jpg")?.count == 300_000)
        // Not on a terminal: no bar, just the result (replacing the first, as asked).
        let plain = try run(app, ["photos", "download", "77", "--to", folder, "--force"])
        #expect(plain.stdout == "Saved \(folder)/77.jpg\n")
    }

    @Test func aDownloadIsThePersonsFileAndNeverReplacesOneUnasked() throws {
        let app = try app([("Photos", "")])
        let folder = try TestEnvironment.temporaryFolder()
        let first = try run(app, ["photos", "download", "104", "--to", folder])
        #expect(first.status == 0)
        let path = folder + "/104.png"
        var status = stat()
        stat(path, &status)
        #expect(status.st_mode & 0o777 == 0o644, "0666 less the umask (022 in these tests)")
        #expect(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
        let again = try run(app, ["photos", "download", "104", "--to", folder])
        #expect(again.status == 1)
        #expect(again.stderr == "modhost: error: photos download: '\(path)' already exists; pass --force to replace it.\n")
        #expect(FileManager.default.contents(atPath: path) == Data("mine".utf8))
        #expect(try run(app, ["photos", "download", "104", "--to", folder, "--force"]).status == 0)
        #expect(FileManager.default.contents(atPath: path)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))

        let nested = folder + "/new/photos"
        let missing = try run(app, ["photos", "download", "104", "--to", nested])
        #expect(missing.status == 1)
        #expect(missing.stderr == "modhost: error: photos download: The folder '\(nested)' does not exist; pass --parents to create it.\n")
        #expect(!FileManager.default.fileExists(atPath: nested))
        #expect(try run(app, ["photos", "download", "104", "--to", nested, "--parents"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: nested + "/104.png"))
    }

    @Test func theAppAsksBeforeItCreatesAFolderOrReplacesAFile() throws {
        let app = try app([("Photos", "")])
        let folder = try TestEnvironment.temporaryFolder() + "/pictures"
        // Home → Photos → Search "mountain" → the photo → Download into a folder that is not
        // there: Continue creates it; then again into the same folder: Cancel keeps the file.
        let input = ["1", "1", "mountain", "1", "1", folder, "1", "1", folder, "0", "0", "0", "0", "q"].joined(separator: "\n") + "\n"
        let result = try run(app, [], input: input)
        #expect(result.stdout.contains("Create the folder?\n==================\n'\(folder)' does not exist.\n"), "\(result.stdout)")
        #expect(result.stdout.contains("Saved \(folder)/104.png"))
        #expect(result.stdout.contains("Replace the file?\n=================\n'\(folder)/104.png' already exists.\n"))
        #expect(FileManager.default.fileExists(atPath: folder + "/104.png"))
    }

    @Test func aMisspelledConfigKeyFailsTheModuleNamingIt() throws {
        let app = try app([("Photos", #""config": {"sorce": "pixabay"}"#), ("Geo", "")])
        let result = try run(app, ["modules"])
        #expect(result.stdout.contains("    reason: config.sorce is not a setting; did you mean 'source'?\n"), "\(result.stdout)")
        #expect(result.stdout.contains("Geo    active"), "the other modules run")
    }

    @Test func theAPIWithoutAKeyFailsTheModuleClearly() throws {
        let app = try app([("Photos", #""config": {"source": "pixabay"}"#)])
        let result = try run(app, ["modules"], environment: ["PIXABAY_API_KEY": ""])
        #expect(
            result.stdout.contains(
                "    reason: threw in register: config.source is 'pixabay' but there is no API key: set config.apiKey or PIXABAY_API_KEY"))
    }
}
