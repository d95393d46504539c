import Foundation
import ModuleHostTesting
import ModuleKitTesting
import TestSupport
import Testing

/// Photos can use the network, but pays for it only in a run that sends a request: the kit
/// opens `libModuleKitNetworking.so` (and through it FoundationNetworking, libcurl and the TLS
/// stack) on the first request. Proven with the dynamic loader's own account (`LD_DEBUG=files`).
@Suite struct NetworkOnFirstUseTests {
    static let networkLibraries = ["libModuleKitNetworking.so", "libFoundationNetworking.so", "libcurl", "libssl", "libgnutls"]

    /// The libraries the loader initialized, from its `LD_DEBUG=files` lines.
    static func initialized(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "calling init: ") else { return nil }
            return String(line[range.upperBound...])
        }
    }

    static func networkLibraries(in stderr: String) -> [String] {
        initialized(stderr).filter { path in networkLibraries.contains { path.contains($0) } }
    }

    @Test(arguments: [["modules"], ["photos", "search", "cat"], ["photos", "show", "101"], []])
    func aCatalogRunMapsNoNetworkLibrary(arguments: [String]) throws {
        let host = try TestHost(entries: [("Photos", #""config": {"source": "catalog"}"#)])
        let result = try host.run(arguments: ["--log-level", "debug"] + arguments, input: "q\n", environment: ["LD_DEBUG": "files"])
        #expect(result.succeeded, "\(result.stderr.suffix(2000))")
        #expect(LoadOnlyWhatIsNeededTests.loaded(result.stderr).contains("libPhotos.so"), "Photos was loaded")
        #expect(Self.networkLibraries(in: result.stderr) == [])
    }

    @Test func theFirstRequestOpensTheNetworkStack() throws {
        let server = try LoopbackHTTPServer { _ in .json(PixabayAPITests.page(PixabayAPITests.hit())) }
        defer { server.stop() }
        let photos = #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "KEY-1234"}"#
        let host = try TestHost(entries: [("Photos", photos)], environment: ["LD_DEBUG": "files"])
        let search = try host.run("photos", "search", "harbour")
        #expect(search.succeeded, "\(search.stderr.suffix(2000))")
        #expect(search.stdout.hasPrefix("Page 1 of 1 (1 photo)\n"))
        let opened = Self.networkLibraries(in: search.stderr)
        // libModuleKitNetworking.so itself is loaded from its checked descriptor (the linker
        // calls it /proc/self/fd/N); FoundationNetworking, which only it links, comes with it.
        #expect(opened.contains { $0.contains("libFoundationNetworking.so") }, "\(opened)")
        // Only listing the modules sends nothing, so it opens nothing.
        let modules = try host.run("modules")
        #expect(Self.networkLibraries(in: modules.stderr) == [])
    }

    /// An install copied elsewhere, with its networking library as `prepare` leaves it.
    func install(_ prepare: (String) throws -> Void) throws -> String {
        let folder = try TestEnvironment.temporaryFolder() + "/opt/modhost"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in [
            "modhost", "libModuleKit.so", "libContracts.so", "libPhotos.so", "libModuleKitNetworking.so",
            "ModuleHost_HostModel.resources", "Photos_PhotosFeature.resources",
        ] {
            try FileManager.default.copyItem(atPath: TestEnvironment.buildFolder + "/" + name, toPath: folder + "/" + name)
        }
        try prepare(folder + "/libModuleKitNetworking.so")
        return folder
    }

    @Test(arguments: [
        (
            "others can write it",
            "cannot be trusted: '%@/libModuleKitNetworking.so' is writable by others than its owner (mode 0666, owner \(TrustTests.owner()))"
        ),
        ("missing", "does not exist; build it with the kit ('swift build' builds the ModuleKitNetworking product)"),
        (
            "a symlink to a file others can write",
            "cannot be trusted: '%@/libModuleKitNetworking.so.real' is writable by others than its owner (mode 0666, owner \(TrustTests.owner()))"
        ),
    ])
    func anUntrustedOrMissingNetworkingLibraryIsRefusedAndSaid(state: String, reason: String) throws {
        let folder = try install { library in
            switch state {
            case "others can write it": _ = chmod(library, 0o666)
            case "missing": try FileManager.default.removeItem(atPath: library)
            default:
                try FileManager.default.moveItem(atPath: library, toPath: library + ".real")
                try FileManager.default.createSymbolicLink(atPath: library, withDestinationPath: library + ".real")
                _ = chmod(library + ".real", 0o666)
            }
        }
        let server = try LoopbackHTTPServer { _ in .json(PixabayAPITests.page(PixabayAPITests.hit())) }
        defer { server.stop() }
        let photos = #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "KEY-1234"}"#
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Photos", photos)]))
        let data = try TestEnvironment.temporaryFolder()
        let search = try ChildProcess.run(
            folder + "/modhost", ["--config", config, "photos", "search", "harbour"], environment: ["MODHOST_DATA_DIR": data])
        #expect(search.status == 1)
        let said = reason.replacingOccurrences(of: "%@", with: folder)
        #expect(
            search.stderr
                == "modhost: error: photos search: Photos cannot send requests on this machine: '\(folder)/libModuleKitNetworking.so' \(said). The catalog still works (config.source \"catalog\").\n"
        )
        #expect(server.received.isEmpty, "nothing was sent")
        // The app keeps running: a search fails with the same words, and Quit still quits.
        let app = try ChildProcess.run(
            folder + "/modhost", ["--config", config], input: "1\n1\nharbour\n", environment: ["MODHOST_DATA_DIR": data])
        #expect(app.status == 0)
        #expect(app.stdout.contains("Photos cannot send requests on this machine"), "\(app.stdout)")
    }
}
