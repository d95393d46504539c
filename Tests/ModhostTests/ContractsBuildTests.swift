import Foundation
import TestSupport
import Testing

/// A module built against another build of a contracts library than the one the process will
/// hold is refused before it is loaded. The fixtures are real files: the test libraries and
/// FixtureContracts copied into folders, some with their recorded fingerprint changed in place.
@Suite struct ContractsBuildTests {
    /// The fingerprint every fixture was really built against, read from libFixtureContracts.so.
    let genuine: String
    let planted = "0123456789abcdef0123456789abcdef"

    init() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureContracts")))
        let marker = Data("name=FixtureContracts\nfingerprint=".utf8)
        let found = try #require(bytes.range(of: marker), "libFixtureContracts.so records no build")
        genuine = String(decoding: bytes[found.upperBound..<found.upperBound + 32], as: UTF8.self)
        #expect(genuine.count == 32 && genuine != planted)
    }

    /// Copies the named libraries of the build folder into `folder`, replacing `genuine` by
    /// `planted` in those listed in `changing` (the same length, so the ELF file stays valid).
    func copy(_ names: [String], to folder: String, changing: Set<String> = []) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library(name)))
            if changing.contains(name) {
                let range = try #require(bytes.range(of: Data(genuine.utf8)), "lib\(name).so does not record \(genuine)")
                bytes.replaceSubrange(range, with: Data(planted.utf8))
            }
            try bytes.write(to: URL(fileURLWithPath: "\(folder)/lib\(name).so"))
            chmod("\(folder)/lib\(name).so", 0o755)
        }
    }

    func modules(_ libraries: [String: String], in folder: String) throws -> String {
        let entries = libraries.sorted { $0.key > $1.key }.map { #"{"name": "\#($0.key)", "enabled": true, "library": "\#($0.value)"}"# }
        let path = folder + "/modules.json"
        try Data(#"{"environment": "test", "modules": [\#(entries.joined(separator: ", "))]}"#.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        return path
    }

    @Test func aContractsLibraryOfAnotherBuildBesideTheModulesRefusesThem() throws {
        let folder = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureConsumer", "FixtureContracts"], to: folder, changing: ["FixtureContracts"])
        let config = try modules(
            ["FixtureProvider": "libFixtureProvider.so", "FixtureConsumer": "libFixtureConsumer.so"], in: folder)
        let provider = "\(folder)/libFixtureProvider.so"
        #expect(
            try moduleStates(["--config", config])["FixtureProvider"]
                == "failed: library '\(provider)' was built against FixtureContracts \(genuine), but this run holds "
                + "FixtureContracts \(planted) ('\(folder)/libFixtureContracts.so', beside it); two builds of a contracts library "
                + "do not share an ABI: rebuild FixtureProvider against the FixtureContracts it is loaded with "
                + "('swift build --product FixtureProvider' in its package) and ship both together")
        // Refused before load: the process never maps the planted library.
        let check = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "check"])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "module 'FixtureConsumer': library '\(folder)/libFixtureConsumer.so' was built against FixtureContracts \(genuine)"))
    }

    @Test func aModuleRecordingAnotherBuildThanTheOneAlreadyHeldIsRefused() throws {
        let first = try TestEnvironment.temporaryFolder()
        let second = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: first)
        // The consumer's own folder holds a library matching its record, but the process will
        // already hold the provider's: the loader binds one lib<Name>.so per name.
        try copy(["FixtureConsumer", "FixtureContracts"], to: second, changing: ["FixtureConsumer", "FixtureContracts"])
        let config = try modules(
            ["FixtureProvider": "\(first)/libFixtureProvider.so", "FixtureConsumer": "\(second)/libFixtureConsumer.so"], in: first)
        let found = try moduleStates(["--config", config])
        #expect(found["FixtureProvider"] == "active: ")
        #expect(
            found["FixtureConsumer"]
                == "failed: library '\(second)/libFixtureConsumer.so' was built against FixtureContracts \(planted), but this run holds "
                + "FixtureContracts \(genuine) ('\(first)/libFixtureContracts.so', loaded with FixtureProvider); two builds of a "
                + "contracts library do not share an ABI: rebuild FixtureConsumer against the FixtureContracts it is loaded with "
                + "('swift build --product FixtureConsumer' in its package) and ship both together")
    }

    @Test func modulesOfOneBuildInTwoFoldersRunTogether() throws {
        let first = try TestEnvironment.temporaryFolder()
        let second = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: first)
        try copy(["FixtureConsumer", "FixtureContracts"], to: second)
        let config = try modules(
            ["FixtureProvider": "\(first)/libFixtureProvider.so", "FixtureConsumer": "\(second)/libFixtureConsumer.so"], in: first)
        #expect(try moduleStates(["--config", config]) == ["FixtureProvider": "active: ", "FixtureConsumer": "active: "])
        let check = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "check"])
        #expect(check.status == 0, "\(check.stderr)")
    }

    @Test func aContractsLibraryOthersCanWriteIsNotLoaded() throws {
        let folder = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: folder)
        chmod("\(folder)/libFixtureContracts.so", 0o646)
        let config = try modules(["FixtureProvider": "libFixtureProvider.so"], in: folder)
        let reason = try #require(try moduleStates(["--config", config])["FixtureProvider"])
        #expect(
            reason.hasPrefix(
                "failed: library '\(folder)/libFixtureProvider.so' needs libFixtureContracts.so beside it, which the host will "
                    + "not load: '\(folder)/libFixtureContracts.so' is writable by others (mode 0646, owner "))
        #expect(reason.hasSuffix("so another user could change it; fix it with 'chmod go-w \(folder)/libFixtureContracts.so'"))
    }
}
