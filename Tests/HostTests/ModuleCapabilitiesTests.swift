import Foundation
import TestSupport
import Testing

@testable import HostModel

/// What a module declares it needs in a sandbox of its own: the manifest's `capability` lines,
/// checked by the kit's build tool, recorded in `.modhost_capabilities` and read back strictly
/// by the host; what modules.json's `deny` takes away, never adds.
@Suite struct ModuleCapabilitiesTests {
    static func section(_ payload: String) -> [UInt8] {
        let length = UInt32(payload.utf8.count)
        return Array("MHCP".utf8) + [1, 0, 0, 0] + (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) } + Array(payload.utf8)
    }

    @Test func eachLineIsACapability() throws {
        let read = try ModuleCapabilities(section: Self.section("network\nread /usr/share/dict\nwrite ~/Pictures\nexec\nenv API_KEY\n"))
        #expect(
            read
                == ModuleCapabilities(
                    network: true, exec: true, reads: ["/usr/share/dict"], writes: ["~/Pictures"], environment: ["API_KEY"]))
        #expect(read.words == ["network", "exec", "read /usr/share/dict", "write ~/Pictures", "env API_KEY"])
    }

    @Test(arguments: [
        "internet\n", "read usr/share\n", "read /usr/../etc\n", "write /tmp/./x\n", "read /a\u{1B}]2;x\n", "network now\n",
        "read\n", "env api-key\n", "env 1KEY\n", "env\n",
    ])
    func anythingElseIsRefused(payload: String) {
        #expect(throws: DescriptorError.self) { try ModuleCapabilities(section: Self.section(payload)) }
    }

    @Test func denyNarrowsAndNeverWidens() {
        let declared = ModuleCapabilities(network: true, reads: ["/usr/share/dict", "/opt/maps"], writes: ["~/Pictures"])
        #expect(
            declared.narrowed(denying: ["network"]) == ModuleCapabilities(reads: ["/usr/share/dict", "/opt/maps"], writes: ["~/Pictures"]))
        #expect(declared.narrowed(denying: ["read /opt/maps", "write"]) == ModuleCapabilities(network: true, reads: ["/usr/share/dict"]))
        // Denying what it does not declare gives it nothing.
        #expect(ModuleCapabilities().narrowed(denying: ["exec", "read /etc"]) == ModuleCapabilities())
        #expect(ModuleCapabilities.isDeniable("read /opt/maps") && !ModuleCapabilities.isDeniable("internet"))
        // A declared line denied that is not declared: a slip, told (a whole kind is not).
        #expect(declared.unmatched(["read /opt/map", "network", "exec", "read /opt/maps"]) == ["read /opt/map"])
    }

    /// The compiler on PATH (the tool records its version).
    static let swiftc: String =
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { $0 + "/swiftc" }
        .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "swiftc"

    /// The kit's build tool, run as a module's build runs it, on a manifest with `lines`.
    func build(_ lines: String) throws -> (status: Int32, error: String, source: String) {
        let folder = try TestEnvironment.temporaryFolder()
        try "type M\nname M\nversion 1.0.0\n\(lines)".write(toFile: folder + "/module.manifest", atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            TestEnvironment.buildFolder + "/KitBuildTool-tool",
            [
                "--descriptor", folder + "/out.swift", folder + "/module.manifest",
                TestEnvironment.repository + "/Sources/ModuleKit/Sources/CModuleABI/include/modhost_abi.h", Self.swiftc,
                "M_M.resources", "no-strings",
            ])
        let source = (try? String(contentsOfFile: folder + "/out.swift", encoding: .utf8)) ?? ""
        return (result.status, result.stderr, source)
    }

    @Test func theBuildToolRecordsEachCapabilityInASectionOfItsOwn() throws {
        let built = try build("capability network\ncapability read /usr/share/dict\n")
        #expect(built.status == 0, "\(built.error)")
        #expect(built.source.contains("@section(\".modhost_capabilities\")"))
        // Without a capability line, no section: such a library declares nothing.
        let plain = try build("")
        #expect(plain.status == 0, "\(plain.error)")
        #expect(!plain.source.contains(".modhost_capabilities"))
    }

    @Test(arguments: [
        ("capability internet", "module.manifest:4: unknown capability 'internet'; use network, exec, read PATH, write PATH or env NAME"),
        ("capability read share", "module.manifest:4: capability 'read' takes a path that starts with '/' or '~/'"),
        ("capability write /tmp/../etc", "module.manifest:4: capability 'write': '/tmp/../etc' is not a plain path"),
        ("capability network\ncapability network", "module.manifest:5: capability 'network' is given twice"),
        ("capability env api-key", "module.manifest:4: capability 'env' takes the name of an environment variable"),
    ])
    func theBuildToolRefusesAnUnclearCapability(line: String, error: String) throws {
        let built = try build(line + "\n")
        #expect(built.status != 0)
        #expect(built.error.contains(error), "\(built.error)")
    }
}
