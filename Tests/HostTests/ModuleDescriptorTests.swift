import Foundation
import Testing

@testable import HostModel

/// The descriptor section's formats: 4 records the SDK version, the compiler and the version
/// of each contracts library a module was built against; 1 to 3 (a kit fingerprint, from a
/// kit before SDK 1.0.0) are still read, so such a library is told which kit it needs.
@Suite struct ModuleDescriptorTests {
    private func section(format: UInt16, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        let length = UInt32(body.count)
        return Array("MHDS".utf8) + [UInt8(format), 0, 0, 0] + (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) } + body
    }

    private let kit = "0123456789abcdef0123456789abcdef"
    private let compiler = "Swift version 6.3.1 (swift-6.3.1-RELEASE)"

    @Test func formatFourCarriesTheSDKTheCompilerAndTheContractsVersions() throws {
        let descriptor = try ModuleDescriptor(
            section: section(
                format: 4,
                "abi=2\nsdk=1.2.0\ncompiler=\(compiler)\nname=Todo\nversion=2.0\nprovides=TodoRoute\nrequires=NotesRoute\n"
                    + "uses=A,B\ncontracts=NotesContracts:1.4.2,Tags:2.0.0\n"))
        #expect(descriptor.abiVersion == 2)
        #expect(descriptor.sdkVersion == "1.2.0")
        #expect(descriptor.compiler == compiler)
        #expect(!descriptor.isBeforeVersioning)
        #expect(descriptor.name == "Todo")
        #expect(descriptor.version == "2.0")
        #expect(descriptor.provides == ["TodoRoute"])
        #expect(descriptor.requires == ["NotesRoute"])
        #expect(descriptor.uses == ["A", "B"])
        #expect(
            descriptor.contracts == [
                ContractsVersion(name: "NotesContracts", version: "1.4.2"), ContractsVersion(name: "Tags", version: "2.0.0"),
            ])
        let none = try ModuleDescriptor(
            section: section(format: 4, "abi=2\nsdk=1.0.0\ncompiler=S\nname=T\nversion=1\nprovides=\nrequires=\nuses=\ncontracts=\n"))
        #expect(none.contracts.isEmpty && none.provides.isEmpty)
    }

    @Test func formatsBeforeVersioningAreReadToSayWhichKitTheyNeed() throws {
        let three = try ModuleDescriptor(
            section: section(
                format: 3,
                "abi=1\nkit=\(kit)\nsdk=0.2.0\nname=Todo\nversion=1.0\nprovides=\nrequires=NotesRoute\nuses=\ncontracts=N:\(kit)\n"))
        #expect(three.isBeforeVersioning)
        #expect(three.sdkVersion == "0.2.0")
        #expect(three.contracts.isEmpty, "fingerprints, not versions")
        #expect(three.requires == ["NotesRoute"])
        let two = try ModuleDescriptor(
            section: section(format: 2, "abi=1\nkit=\(kit)\nsdk=0.1.0\nname=N\nversion=1\nprovides=\nrequires=\nuses=\n"))
        #expect(two.isBeforeVersioning && two.sdkVersion == "0.1.0")
        let one = try ModuleDescriptor(
            section: section(format: 1, "abi=1\nkit=\(kit)\nname=Notes\nversion=2.0\nprovides=\nrequires=R\nuses=\n"))
        #expect(one.sdkVersion == nil && one.isBeforeVersioning)
        #expect(one.requires == ["R"])
    }

    @Test(arguments: [
        (
            UInt16(4), "abi=2\nsdk=1.0.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=\n",
            "has 8 fields, expected 9 (abi, sdk, compiler, name, version, provides, requires, uses, contracts)"
        ),
        (
            UInt16(4), "abi=2\nsdk=1 0\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=\n",
            "has SDK version '1 0'; a version holds letters, digits, '.', '-' and '+'"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=\n",
            "has compiler '', not one line of printable ASCII"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=\u{1b}[2J\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=\n",
            "has compiler '\\u{1B}[2J', not one line of printable ASCII"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=no-route\ncontracts=\n",
            "lists route 'no-route' in 'uses', not an identifier"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=NotesContracts\n",
            "lists contracts 'NotesContracts', not 'Name:MAJOR.MINOR.PATCH'"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=N:1.0.0,N:1.0\n",
            "lists contracts 'N:1.0', not 'Name:MAJOR.MINOR.PATCH'"
        ),
        (
            UInt16(3), "abi=1\nkit=K\nsdk=1.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\n",
            "has 8 fields, expected 9 (abi, kit, sdk, name, version, provides, requires, uses, contracts)"
        ),
        (
            UInt16(2), "abi=1\nkit=nothex\nsdk=1.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\n",
            "has kit fingerprint 'nothex', not 32 hex digits"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.1.0-rc1\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=\n",
            "has SDK version '1.1.0-rc1', not MAJOR.MINOR.PATCH"
        ),
        (
            UInt16(4), "abi=2\nsdk=1.0.0\ncompiler=S\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=N:1.0.0,N:2.0.0\n",
            "lists contracts 'N' twice"
        ),
        (UInt16(5), "abi=2\n", "has format 5, the host reads formats 1 to 4"),
    ])
    func aBadSectionIsRefusedWithWhatIsWrong(format: UInt16, payload: String, problem: String) {
        let bytes = section(format: format, payload.replacingOccurrences(of: "kit=K", with: "kit=\(kit)"))
        #expect(throws: DescriptorError.malformed(problem)) { try ModuleDescriptor(section: bytes) }
    }

    private func contractsSection(format: UInt16, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        let length = UInt32(body.count)
        return Array("MHCT".utf8) + [UInt8(format), 0, 0, 0] + (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) } + body
    }

    @Test func aContractsSectionRecordsAVersion() throws {
        #expect(
            try ContractsVersion(section: contractsSection(format: 2, "name=NotesContracts\nversion=1.3.0\ncompiler=\(compiler)\n"))
                == ContractsVersion(name: "NotesContracts", version: "1.3.0", compiler: compiler))
        #expect(throws: DescriptorError.malformed("has version '1.3', not MAJOR.MINOR.PATCH")) {
            try ContractsVersion(section: contractsSection(format: 2, "name=NotesContracts\nversion=1.3\ncompiler=S\n"))
        }
        #expect(throws: DescriptorError.malformed("has 2 fields, expected 'name=', 'version=' and 'compiler='")) {
            try ContractsVersion(section: contractsSection(format: 2, "name=NotesContracts\nversion=1.3.0\n"))
        }
        #expect(
            throws: DescriptorError.malformed(
                "records a fingerprint (format 1, from a kit before SDK 1.0.0), not a version; rebuild it with this kit's ContractsVersionPlugin"
            )
        ) {
            try ContractsVersion(section: contractsSection(format: 1, "name=NotesContracts\nfingerprint=\(kit)\n"))
        }
    }
}

/// The commands section a module's manifest declares (`command add --country --city`): read
/// for completion and the manual, each command a word and its options, anything else refused.
@Suite struct DeclaredCommandsTests {
    static func section(_ payload: String) -> [UInt8] {
        let length = UInt32(payload.utf8.count)
        return Array("MHCM".utf8) + [1, 0, 0, 0] + (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) } + Array(payload.utf8)
    }

    @Test func aCommandIsAWordAndItsOptions() throws {
        let commands = try DeclaredCommand.list(section: Self.section("list --json\nadd --country --city\nreset-password\n"))
        #expect(
            commands == [
                DeclaredCommand(name: "list", options: ["--json"]), DeclaredCommand(name: "add", options: ["--country", "--city"]),
                DeclaredCommand(name: "reset-password", options: []),
            ])
    }

    @Test(arguments: ["List\n", "add -c\n", "add --Country\n", "a\u{1B}b\n", "add --\n"])
    func anythingElseIsRefused(payload: String) {
        #expect(throws: DescriptorError.self) { try DeclaredCommand.list(section: Self.section(payload)) }
    }
}
