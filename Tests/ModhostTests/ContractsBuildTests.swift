import Foundation
import TestSupport
import Testing

/// A module built against a version of a contracts library that does not fit the one the
/// process will hold is refused before it is loaded. The fixtures are real files: the test
/// libraries and FixtureContracts copied into folders, some with the version the library
/// records, or the version a module recorded, changed in place (the same length, so the ELF
/// file stays valid).
///
/// The libraries are hand-altered copies in folders of their own: not a world.
@Suite struct ContractsBuildTests {
    /// The version every fixture was really built against, read from libFixtureContracts.so.
    let genuine: String

    init() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureContracts")))
        let marker = Data("name=FixtureContracts\nversion=".utf8)
        let found = try #require(bytes.range(of: marker), "libFixtureContracts.so records no version")
        genuine = String(decoding: bytes[found.upperBound...].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(genuine == "1.0.0", "Tests/Fixtures/FixtureContracts/Sources/FixtureContracts/contracts.manifest")
    }

    /// Copies the named libraries of the build folder into `folder`; in each named in
    /// `changing`, the version of FixtureContracts it records (the library's own, or a
    /// module's record of it) becomes `version`.
    func copy(_ names: [String], to folder: String, changing: [String: String] = [:]) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for name in names {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library(name)))
            if let version = changing[name] {
                let (old, new) =
                    name == "FixtureContracts"
                    ? ("name=FixtureContracts\nversion=\(genuine)\n", "name=FixtureContracts\nversion=\(version)\n")
                    : ("FixtureContracts:\(genuine)\n", "FixtureContracts:\(version)\n")
                #expect(old.utf8.count == new.utf8.count)
                let range = try #require(bytes.range(of: Data(old.utf8)), "lib\(name).so does not record \(old)")
                bytes.replaceSubrange(range, with: Data(new.utf8))
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

    @Test func aContractsLibraryOfAnOlderMinorBesideTheModulesRefusesThem() throws {
        let folder = try TestEnvironment.temporaryFolder()
        // The modules were built against 1.4.0; the library shipped beside them is 1.0.0.
        try copy(
            ["FixtureProvider", "FixtureConsumer", "FixtureContracts"], to: folder,
            changing: ["FixtureProvider": "1.4.0", "FixtureConsumer": "1.4.0"])
        let config = try modules(
            ["FixtureProvider": "libFixtureProvider.so", "FixtureConsumer": "libFixtureConsumer.so"], in: folder)
        let provider = "\(folder)/libFixtureProvider.so"
        #expect(
            try moduleStates(["--config", config])["FixtureProvider"]
                == "failed: library '\(provider)' was built against FixtureContracts 1.4.0, but this run holds FixtureContracts 1.0.0 "
                + "('\(folder)/libFixtureContracts.so', beside it), which lacks what 1.4 added: ship FixtureContracts 1.4 or later in "
                + "its place")
        // Refused before load: the process never maps the library.
        let check = try ChildProcess.run(TestEnvironment.modhost, ["--config", config, "check"])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains(
                "modules[1] ('FixtureConsumer'): library '\(folder)/libFixtureConsumer.so' was built against FixtureContracts 1.4.0"))
    }

    @Test func aModuleRefusedForItsContractsStaysRefusedWhenAnotherFailsLater() throws {
        // ReadmeNotes fails at load (a config it does not take), which plans the run again:
        // the refused provider must not come back as active, never having been loaded.
        let folder = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: folder, changing: ["FixtureProvider": "1.4.0"])
        let path = folder + "/modules.json"
        try Data(
            #"""
            {"environment": "test", "modules": [
              {"name": "FixtureProvider", "enabled": true, "library": "libFixtureProvider.so"},
              {"name": "ReadmeNotes", "enabled": true, "library": "\#(TestEnvironment.library("ReadmeNotes"))", "config": {"x": 1}}
            ]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        let states = try moduleStates(["--config", path])
        #expect(
            states["FixtureProvider"]?.hasPrefix(
                "failed: library '\(folder)/libFixtureProvider.so' was built against FixtureContracts 1.4.0") == true, "\(states)")
        #expect(states["ReadmeNotes"]?.hasPrefix("failed: config.x ") == true, "\(states)")
    }

    @Test func aNewerMinorBesideTheModulesServesThemAll() throws {
        let folder = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureConsumer", "FixtureContracts"], to: folder, changing: ["FixtureContracts": "1.7.3"])
        let config = try modules(
            ["FixtureProvider": "libFixtureProvider.so", "FixtureConsumer": "libFixtureConsumer.so"], in: folder)
        #expect(try moduleStates(["--config", config]) == ["FixtureProvider": "active: ", "FixtureConsumer": "active: "])
    }

    @Test func aContractsLibraryBuiltByAnotherCompilerIsNotLoaded() throws {
        let folder = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: folder)
        let library = folder + "/libFixtureContracts.so"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: library))
        let compiler = try HostileLibrary.buildRecord().compiler
        // Another compiler of the same length, so the section keeps its size.
        let other = "Swift version 9" + compiler.dropFirst("Swift version 9".count)
        #expect(other != compiler)
        let old = Data("version=\(genuine)\ncompiler=\(compiler)\n".utf8)
        let range = try #require(bytes.range(of: old), "libFixtureContracts.so records no compiler")
        bytes.replaceSubrange(range, with: Data("version=\(genuine)\ncompiler=\(other)\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: library))
        let config = try modules(["FixtureProvider": "libFixtureProvider.so"], in: folder)
        #expect(
            try moduleStates(["--config", config])["FixtureProvider"]
                == "failed: library '\(folder)/libFixtureProvider.so' needs libFixtureContracts.so beside it, which the host will not "
                + "load: '\(library)' was built by '\(other)', this host's kit by '\(compiler)'; rebuild it with '\(compiler)'")
    }

    @Test func aModuleOfAnotherMajorThanTheOneAlreadyHeldIsRefused() throws {
        let first = try TestEnvironment.temporaryFolder()
        let second = try TestEnvironment.temporaryFolder()
        try copy(["FixtureProvider", "FixtureContracts"], to: first)
        // The consumer's own folder holds a library matching its record, but the process will
        // already hold the provider's: the loader binds one lib<Name>.so per name.
        try copy(["FixtureConsumer", "FixtureContracts"], to: second, changing: ["FixtureConsumer": "2.0.0", "FixtureContracts": "2.0.0"])
        let config = try modules(
            ["FixtureProvider": "\(first)/libFixtureProvider.so", "FixtureConsumer": "\(second)/libFixtureConsumer.so"], in: first)
        let found = try moduleStates(["--config", config])
        #expect(found["FixtureProvider"] == "active: ")
        #expect(
            found["FixtureConsumer"]
                == "failed: library '\(second)/libFixtureConsumer.so' was built against FixtureContracts 2.0.0, but this run holds "
                + "FixtureContracts 1.0.0 ('\(first)/libFixtureContracts.so', loaded with FixtureProvider); a module runs only with the "
                + "major of a contracts library it was built against: rebuild FixtureConsumer against FixtureContracts 1.x "
                + "('swift build --product FixtureConsumer' in its package) and ship them together")
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
