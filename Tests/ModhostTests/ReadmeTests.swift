import Foundation
import TestSupport
import Testing

/// The documents' examples are what the program does: each is run or compared here, in the
/// file it lives in (the README, `docs/`, `CONTRIBUTING.md`, the SDK guide).
///
/// It runs the documents' command lines as they are written (`--config`, their files):
/// not a world.
@Suite struct ReadmeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let readme = document("README.md")
    static let using = document("docs/USING.md")
    static let operating = document("docs/OPERATING.md")
    static let contributing = document("CONTRIBUTING.md")
    static let guide = document("Sources/ModuleKit/README.md")

    /// A document of the repository, by its path from the root ("" when it cannot be read).
    static func document(_ path: String) -> String {
        (try? String(contentsOfFile: repository + "/" + path, encoding: .utf8)) ?? ""
    }

    /// The fenced blocks after `heading` (a line of `text`), in order, up to the next heading
    /// of level two.
    static func blocks(in text: String, after heading: String) -> [String] {
        guard let start = text.range(of: heading) else { return [] }
        var blocks: [String] = []
        var rest = text[start.upperBound...]
        while let open = rest.range(of: "```") {
            guard let lineEnd = rest[open.upperBound...].firstIndex(of: "\n"),
                let close = rest[lineEnd...].range(of: "\n```")
            else { break }
            blocks.append(String(rest[rest.index(after: lineEnd)..<close.lowerBound]) + "\n")
            rest = rest[close.upperBound...]
            if rest.hasPrefix("\n\n##") || rest.dropFirst().hasPrefix("\n## ") { break }
        }
        return blocks
    }

    /// The README is the front door: short, and every document it sends a reader to is there.
    @Test func theReadmeIsShortAndItsLinksLead() throws {
        #expect(Self.readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 200)
        let links = Self.readme.split(separator: "(").compactMap { part -> String? in
            guard let end = part.firstIndex(of: ")"), part[..<end].hasSuffix(".md") else { return nil }
            return String(part[..<end])
        }
        #expect(links.count >= 6, "\(links)")
        for link in links {
            #expect(FileManager.default.fileExists(atPath: Self.repository + "/" + link), "\(link)")
        }
    }

    /// Files small enough to read whole: no Swift or C source of the repository (tests, the
    /// kit, the modules) passes 400 lines; a file that grows is split by what it holds.
    @Test func noSourceFileIsLongerThan400Lines() throws {
        var long: [String] = []
        var count = 0
        for root in ["Sources", "Plugins", "Tests", "Benchmarks"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.repository + "/" + root)
            while let file = enumerator?.nextObject() as? String {
                guard [".swift", ".c", ".h"].contains(where: file.hasSuffix), !file.contains(".build/") else { continue }
                let text = try String(contentsOfFile: Self.repository + "/" + root + "/" + file, encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
                count += 1
                if lines > 400 { long.append("\(root)/\(file): \(lines) lines") }
            }
        }
        #expect(count > 300, "\(count) files")
        #expect(long == [])
    }

    /// Tests/README.md maps every suite to the code it covers: a new suite is named there.
    @Test func everySuiteIsMappedToTheCodeItCovers() throws {
        let map = try String(contentsOfFile: Self.repository + "/Tests/README.md", encoding: .utf8)
        var suites: [String] = []
        for root in ["Tests", "Plugins"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.repository + "/" + root)
            while let file = enumerator?.nextObject() as? String {
                guard file.hasSuffix(".swift"), !file.contains(".build/") else { continue }
                let text = try String(contentsOfFile: Self.repository + "/" + root + "/" + file, encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("@Suite") {
                    guard let range = line.range(of: " struct ") else { continue }
                    suites += line[range.upperBound...].split(separator: " ").prefix(1).map(String.init)
                }
            }
        }
        #expect(suites.count > 80, "\(suites.count)")
        for suite in suites { #expect(map.contains("`\(suite)`"), "Tests/README.md does not name \(suite)") }
    }

    /// The tour shows what `modhost modules` prints on the shipped `modules.json`, and that file.
    @Test func theTourIsRealOutput() throws {
        // The first block is the app's picture (FullScreenPictureTests holds it to the app).
        let blocks = Array(Self.blocks(in: Self.readme, after: "## A one-minute tour").dropFirst())
        let shipped = try String(contentsOfFile: Self.repository + "/modules.json", encoding: .utf8)
        #expect(blocks.dropFirst().first == shipped)
        let config = try TestEnvironment.write(shipped)
        let data = try TestEnvironment.temporaryFolder()
        let modules = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "--data-dir", data, "modules"])
        #expect(blocks.first == modules.stdout, "\(modules.stdout)")
    }

    @Test func theReadmeIsFound() {
        #expect(Self.readme.hasPrefix("# ModuleHost"))
    }

    /// The SDK's guide states the version the header defines and that `--version` prints, and
    /// the commands it starts with are the ones `NewModuleTests` runs.
    @Test func theSDKGuideAgreesWithTheKit() throws {
        let guide = Self.guide
        let header = try String(
            contentsOfFile: Self.repository + "/Sources/ModuleKit/Sources/CModuleABI/include/modhost_abi.h", encoding: .utf8)
        let line = try #require(header.split(separator: "\n").first { $0.hasPrefix("#define MODHOST_SDK_VERSION ") })
        let version = line.split(separator: "\"").dropFirst().first.map(String.init)
        #expect(version == "1.8.0")
        #expect(guide.contains("(now \(version ?? "?"))"))
        #expect(try modhost(["--version"]).stdout.contains("ModuleKit SDK \(version ?? "?"),"))
        for command in ["modhost new Notes", "swift test --package-path Notes", "swift build --package-path Notes"] {
            #expect(guide.contains(command), "\(command)")
        }
    }

    /// "Work on one module alone", in order: the first two lines as written (in Geo's own
    /// package folder, which they build), the third's host run as written, with the `modhost`
    /// this test run built (a second `swift build` of the root would wait for this one).
    @Test func theOneModuleStepsWorkInOrderAndBuildOnlyTheKitAndTheModule() throws {
        let block = try #require(Self.blocks(in: Self.contributing, after: "### Work on one module alone").first)
        let lines = block.split(separator: "\n").map { String($0.prefix { $0 != "#" }).trimmingCharacters(in: .whitespaces) }
        #expect(lines.count == 3, "\(lines)")
        guard lines.count == 3 else { return }
        #expect(lines[0] == "swift build --package-path Plugins/Geo")
        #expect(lines[1] == "swift test --package-path Plugins/Geo")
        for line in lines.prefix(2) {
            let result = try ChildProcess.run("/bin/sh", ["-c", line], currentDirectory: Self.repository, deadline: 900)
            #expect(result.status == 0, "\(line): \(result.stdout)\n\(result.stderr)")
        }
        // Only the kit, the harness and Geo were compiled: the build folders holding objects.
        let products = Self.repository + "/Plugins/Geo/.build/debug"
        let built = try FileManager.default.contentsOfDirectory(atPath: products).filter { folder in
            folder.hasSuffix(".build")
                && ((try? FileManager.default.contentsOfDirectory(atPath: products + "/" + folder)) ?? []).contains { $0.hasSuffix(".o") }
        }.map { String($0.dropLast(6)) }
        #expect(Set(built).isSuperset(of: ["ModuleKit", "Contracts", "ModuleKitTesting", "GeoFeature", "Geo", "GeoTests"]), "\(built)")
        let allowed: Set<String> = [
            "ModuleKit", "Contracts", "CModuleABI", "CTerminal", "CDigest", "CSQLite", "ModuleKitTesting", "GeoFeature", "Geo", "GeoTests",
            "GeoPackageTests",
            "GeoPackageDiscoveredTests", "KitBuildTool", "KitBuildTool-tool",
        ]
        #expect(Set(built).subtracting(allowed).sorted() == [], "built more than the kit, the harness and Geo")

        let run = try #require(lines[2].components(separatedBy: " && ").last)
        #expect(run == ".build/debug/modhost --only Geo --module Plugins/Geo/.build/debug/libGeo.so")
        let arguments = run.split(separator: " ").dropFirst().map(String.init)
        let data = try TestEnvironment.temporaryFolder()
        let host = try ChildProcess.run(
            TestEnvironment.modhost, arguments, environment: ["MODHOST_DATA_DIR": data], currentDirectory: Self.repository)
        #expect(host.status == 0)
        #expect(host.stdout.contains("Places"), "\(host.stdout)")
        let logged = try ChildProcess.run(
            TestEnvironment.modhost, ["--log-level", "debug"] + arguments, environment: ["MODHOST_DATA_DIR": data],
            currentDirectory: Self.repository)
        #expect(
            logged.stderr.contains(
                "module 'Geo': loaded '\(URL(fileURLWithPath: Self.repository + "/Plugins/Geo/.build/debug/libGeo.so").resolvingSymlinksInPath().path)' from the file that was checked"
            ),
            "\(logged.stderr.suffix(2000))")
        #expect(LoadOnlyWhatIsNeededTests.loaded(logged.stderr) == ["libGeo.so"], "only Geo is loaded")
    }

    /// The guide's integration test is a test of this repository, which runs (in
    /// ModuleHostTestingTests).
    @Test func theIntegrationTestExampleIsARealTest() throws {
        let blocks = Self.blocks(in: Self.guide, after: "## Integration tests")
        let file = Self.repository + "/Tests/ModuleHostTestingTests/NotesInTheHostTests.swift"
        #expect(blocks.last == (try String(contentsOfFile: file, encoding: .utf8)))
    }

    @Test func theWriteAModuleExampleIsTheFixtureThatBuildsAndLoads() throws {
        let blocks = Self.blocks(in: Self.guide, after: "## A first module, in full")
        let folder = Self.repository + "/Tests/Fixtures/Modules/ReadmeNotes"
        #expect(blocks.first == (try String(contentsOfFile: folder + "/module.manifest", encoding: .utf8)))
        #expect(blocks.dropFirst().first == (try String(contentsOfFile: folder + "/NotesModule.swift", encoding: .utf8)))
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("ReadmeNotes", "")]))
        let data = try TestEnvironment.temporaryFolder()
        let add = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "readmenotes", "add", "buy bread"], environment: ["MODHOST_DATA_DIR": data])
        #expect(add.stdout == "Noted.\n", "\(add.stderr)")
        let list = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "readmenotes", "list"], environment: ["MODHOST_DATA_DIR": data])
        #expect(list.stdout == "buy bread\n")
    }

    @Test func theUsageBlockIsWhatHelpPrints() throws {
        let block = try #require(Self.blocks(in: Self.using, after: "## The command line").first)
        let help = try ChildProcess.run(TestEnvironment.modhost, ["--help"], environment: ["MODHOST_CONFIG": "/nonexistent/modules.json"])
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let commands = try #require(lines.firstIndex(of: "COMMANDS:"))
        let options = try #require(lines.firstIndex(of: "OPTIONS:"))
        let optionLines = lines[(options + 1)...].prefix { !$0.isEmpty }
        let expected = ["modhost [OPTIONS] [COMMAND]", ""] + lines[(commands + 1)..<(options - 1)] + [""] + optionLines
        #expect(block == expected.joined(separator: "\n") + "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "help fits 80 columns")
    }

    @Test func theModulesFileExampleDecodesAndStarts() throws {
        let example = try #require(Self.blocks(in: Self.operating, after: "## `modules.json`").first)
        // Its relative folders, made to hold this build's libraries.
        let folder = try TestEnvironment.temporaryFolder()
        #expect(symlink(TestEnvironment.buildFolder, folder + "/lib") == 0)
        #expect(symlink(TestEnvironment.buildFolder, folder + "/modules") == 0)
        let config = folder + "/modules.json"
        #expect(FileManager.default.createFile(atPath: config, contents: Data(example.utf8), attributes: [.posixPermissions: 0o600]))
        let result = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "modules", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let modules = try #require(document["modules"] as? [[String: Any]])
        #expect(modules.count == 3)
        for module in modules {
            #expect(module["state"] as? String == "active", "\(module["name"] ?? "?"): \(module["reason"] ?? "")")
        }
    }

    @Test func theScriptedExampleRegistersThenQuits() throws {
        let line = try #require(
            Self.using.split(separator: "\n").first { $0.hasPrefix("printf '") && $0.contains("# register, then quit") })
        let input = String(line.dropFirst("printf '".count).prefix { $0 != "'" }).replacingOccurrences(of: "\\n", with: "\n")
        let data = try TestEnvironment.temporaryFolder()
        let config = try TestEnvironment.write(try String(contentsOfFile: Self.repository + "/modules.json", encoding: .utf8))
        let app = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config], input: input, environment: ["MODHOST_DATA_DIR": data])
        #expect(app.status == 0)
        #expect(app.stdout.hasSuffix("Goodbye.\n"), "it quits where it says")
        let whoami = try ChildProcess.run(
            TestEnvironment.modhost, ["--config", config, "auth", "whoami"], environment: ["MODHOST_DATA_DIR": data])
        #expect(whoami.stdout == "Ann <ann@example.com>\n")
    }

    @Test func theModulesJSONSampleIsRealOutput() throws {
        let sample = try #require(Self.blocks(in: Self.using, after: "### `modhost modules --json`").first)
        let config = try TestEnvironment.write(
            #"{"environment": "development", "searchPaths": ["\#(TestEnvironment.buildFolder)"], "modules": [{"name": "Geo", "enabled": true}]}"#
        )
        let real = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "modules", "--json"])
        // Paths and the library's hash differ by machine; every key and every other value must match.
        func normalized(_ text: String) throws -> NSDictionary {
            var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            document["configuration"] = "-"
            var modules = try #require(document["modules"] as? [[String: Any]])
            for index in modules.indices {
                modules[index]["library"] = "-"
                #expect((modules[index]["sha256"] as? String)?.count == 64)
                modules[index]["sha256"] = "-"
            }
            document["modules"] = modules
            return document as NSDictionary
        }
        #expect(try normalized(sample) == normalized(real.stdout))
    }
}
