import Foundation
import TestSupport
import Testing

/// A module is refused from its file, before any of its code runs, when the SDK release or the
/// compiler it was built with cannot run with this host's kit. The fixtures are FixtureProvider's
/// real library, copied with one field of its descriptor changed in place (same length, so the
/// ELF file stays valid): what a module built against another release would carry. That an
/// older release's module does load is proven with real builds (`SDKCompatibilityTests`).
///
/// The libraries are hand-altered copies in folders of their own: not a world.
@Suite struct SDKVersionTests {
    let record: HostileLibrary.BuildRecord

    init() throws {
        record = try HostileLibrary.buildRecord()
        #expect(record.sdk.split(separator: ".").count == 3)
        #expect(record.compiler.hasPrefix("Swift version "))
    }

    /// FixtureProvider's library with `old` written over by `new` (the same length), and a
    /// modules.json that loads it.
    func provider(replacing old: String, with new: String) throws -> (library: String, config: String) {
        #expect(old.utf8.count == new.utf8.count)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureProvider"))))
        let start = try #require(HostileLibrary.find(Array(old.utf8), in: bytes), "'\(old)' is not in the descriptor")
        bytes.replaceSubrange(start..<start + old.utf8.count, with: Array(new.utf8))
        let folder = try TestEnvironment.temporaryFolder()
        let library = folder + "/libFixtureProvider.so"
        try Data(bytes).write(to: URL(fileURLWithPath: library))
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("FixtureProvider", #""library": "\#(library)""#)]))
        return (library, config)
    }

    var major: Int { Int(record.sdk.split(separator: ".")[0]) ?? 0 }
    var minor: Int { Int(record.sdk.split(separator: ".")[1]) ?? 0 }
    /// The host's kit folder as the messages name it.
    var kit: String { TestEnvironment.repository + "/Sources/ModuleKit" }

    /// The reason `modules` gives for FixtureProvider, after making sure no code of it ran.
    func reason(_ config: String) throws -> String {
        let result = try modhost(["--config", config, "modules"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("undefined symbol"))
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("    reason: ") }, "\(result.stdout)")
        return String(line.dropFirst("    reason: ".count))
    }

    @Test func aModuleOfANewerMinorIsRefusedWithUpdateModhost() throws {
        // One digit more in the minor would change the length: the minor is raised in place.
        let newer = "\(major).\(minor + 1).0"
        try #require(newer.utf8.count == record.sdk.utf8.count)
        let (library, config) = try provider(replacing: "\nsdk=\(record.sdk)\n", with: "\nsdk=\(newer)\n")
        #expect(
            try reason(config)
                == "library '\(library)' was built against SDK \(newer); this host has SDK \(record.sdk), which lacks what \(major).\(minor + 1) added: update modhost to a release of SDK \(major).\(minor + 1) or later"
        )
    }

    @Test func aModuleOfAnotherMajorIsRefusedWithTheKitToRebuildAgainst() throws {
        let next = "\(major + 1).0.0"
        try #require(next.utf8.count == record.sdk.utf8.count)
        let (library, config) = try provider(replacing: "\nsdk=\(record.sdk)\n", with: "\nsdk=\(next)\n")
        #expect(
            try reason(config)
                == "library '\(library)' was built against SDK \(next); this host has SDK \(record.sdk): a module runs only in a host of the SDK major it was built against (\(major + 1).x): update modhost, or rebuild the module against this host's kit; this host's kit is '\(kit)' (the 'let kit' line of the module's Package.swift names the kit it builds against); in its package: 'swift build --product FixtureProvider'"
        )
    }

    @Test func aModuleBuiltByAnotherCompilerIsRefused() throws {
        // "Swift version 6.3.1 (…)" with its first digit changed: another compiler of the same length.
        let version = record.compiler.dropFirst("Swift version ".count)
        let first = try #require(version.first)
        let other = "Swift version " + (first == "9" ? "8" : String(UInt8(String(first)).map { $0 + 1 } ?? 9)) + version.dropFirst()
        let (library, config) = try provider(replacing: "\ncompiler=\(record.compiler)\n", with: "\ncompiler=\(other)\n")
        #expect(
            try reason(config)
                == "library '\(library)' was built by '\(other)', this host's kit by '\(record.compiler)': Swift keeps modules binary compatible on Linux only between builds of one compiler; rebuild the module with '\(record.compiler)'; this host's kit is '\(kit)' (the 'let kit' line of the module's Package.swift names the kit it builds against); in its package: 'swift build --product FixtureProvider'"
        )
    }

    @Test func aLibraryFromAKitBeforeVersioningIsToldToRebuild() throws {
        // A format-3 descriptor of SDK 0.2.0, as a module built before 1.0.0 carries: the host
        // reads it from a C library that declares exactly that.
        let folder = try TestEnvironment.temporaryFolder()
        let source = folder + "/old.c"
        let payload =
            #"abi=1\nkit=0123456789abcdef0123456789abcdef\nsdk=0.2.0\nname=Old\nversion=1.0.0\nprovides=\nrequires=\nuses=\ncontracts=\n"#
        try Data(
            """
            #include <stdint.h>
            __attribute__((section(".modhost_descriptor"), used)) static const struct {
                char magic[4]; uint16_t format; uint16_t zero; uint32_t length; char payload[sizeof("\(payload)") - 1];
            } __attribute__((packed)) descriptor = {{'M', 'H', 'D', 'S'}, 3, 0, sizeof("\(payload)") - 1, "\(payload)"};
            __attribute__((constructor)) static void ran(void) { *(volatile int *)0 = 1; }

            """.utf8
        ).write(to: URL(fileURLWithPath: source))
        let built = try ChildProcess.run("/usr/bin/gcc", ["-shared", "-fPIC", "-o", folder + "/libOld.so", source])
        try #require(built.status == 0, "\(built.stderr)")
        let config = try TestEnvironment.write(TestEnvironment.modulesJSON([("Old", #""library": "\#(folder)/libOld.so""#)]))
        #expect(
            try reason(config)
                == "library '\(folder)/libOld.so' was built against ModuleKit SDK 0.2.0, before SDK 1.0.0 gave the kit a stable binary interface; this host has SDK \(record.sdk): rebuild the module against this host's kit; this host's kit is '\(kit)' (the 'let kit' line of the module's Package.swift names the kit it builds against); in its package: 'swift build --product Old'"
        )
    }

    @Test func versionNamesTheSDKAndTheCompiler() throws {
        let result = try modhost(["--version"])
        #expect(result.stdout == "modhost 0.1.0 (module ABI 2, ModuleKit SDK \(record.sdk), \(record.compiler))\n")
    }
}
