import Foundation
import Testing

@testable import HostCore

/// The descriptor section's formats: 3 records the contracts libraries a module was built
/// against, 2 the SDK version; 1 (no `sdk` line) is still read, so a library built with an
/// older kit is told which kit it needs. And the contracts section of a contracts library.
@Suite struct ModuleDescriptorTests {
    private func section(format: UInt16, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        let length = UInt32(body.count)
        return Array("MHDS".utf8) + [UInt8(format), 0, 0, 0] + (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) } + body
    }

    private let kit = "0123456789abcdef0123456789abcdef"

    @Test func formatTwoCarriesTheSDKVersion() throws {
        let descriptor = try ModuleDescriptor(
            section: section(
                format: 2, "abi=1\nkit=\(kit)\nsdk=1.2.0-beta+7\nname=Notes\nversion=2.0\nprovides=NotesRoute\nrequires=\nuses=A,B\n"))
        #expect(descriptor.sdkVersion == "1.2.0-beta+7")
        #expect(descriptor.name == "Notes")
        #expect(descriptor.version == "2.0")
        #expect(descriptor.provides == ["NotesRoute"])
        #expect(descriptor.requires == [])
        #expect(descriptor.uses == ["A", "B"])
    }

    @Test func formatThreeCarriesTheContractsBuilds() throws {
        let other = "fedcba9876543210fedcba9876543210"
        let descriptor = try ModuleDescriptor(
            section: section(
                format: 3,
                "abi=1\nkit=\(kit)\nsdk=0.1.0\nname=Todo\nversion=1.0\nprovides=\nrequires=NotesRoute\nuses=\n"
                    + "contracts=NotesContracts:\(kit),Tags:\(other)\n"))
        #expect(
            descriptor.contracts == [
                ContractsBuild(name: "NotesContracts", fingerprint: kit), ContractsBuild(name: "Tags", fingerprint: other),
            ])
        #expect(descriptor.requires == ["NotesRoute"])
        #expect(descriptor.sdkVersion == "0.1.0")
        let none = try ModuleDescriptor(
            section: section(format: 3, "abi=1\nkit=\(kit)\nsdk=0.1.0\nname=Todo\nversion=1.0\nprovides=\nrequires=\nuses=\ncontracts=\n"))
        #expect(none.contracts.isEmpty)
        #expect(
            try ModuleDescriptor(section: section(format: 2, "abi=1\nkit=\(kit)\nsdk=1\nname=N\nversion=1\nprovides=\nrequires=\nuses=\n"))
                .contracts.isEmpty)
    }

    @Test func formatOneHasNoSDKVersion() throws {
        let descriptor = try ModuleDescriptor(
            section: section(format: 1, "abi=1\nkit=\(kit)\nname=Notes\nversion=2.0\nprovides=\nrequires=R\nuses=\n"))
        #expect(descriptor.sdkVersion == nil)
        #expect(descriptor.requires == ["R"])
    }

    @Test(arguments: [
        (
            UInt16(2), "abi=1\nkit=K\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\n",
            "has 7 fields, expected 8 (abi, kit, sdk, name, version, provides, requires, uses)"
        ),
        (
            UInt16(2), "abi=1\nkit=K\nsdk=1 0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\n",
            "has SDK version '1 0'; a version holds letters, digits, '.', '-' and '+'"
        ),
        (
            UInt16(2), "abi=1\nkit=K\nsdk=\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\n",
            "has SDK version ''; a version holds letters, digits, '.', '-' and '+'"
        ),
        (
            UInt16(2), "abi=1\nkit=K\nsdk=1.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=no-route\n",
            "lists route 'no-route' in 'uses', not an identifier"
        ),
        (
            UInt16(3), "abi=1\nkit=K\nsdk=1.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=NotesContracts\n",
            "lists contracts 'NotesContracts', not 'Name:fingerprint'"
        ),
        (
            UInt16(3), "abi=1\nkit=K\nsdk=1.0\nname=Notes\nversion=2.0\nprovides=\nrequires=\nuses=\ncontracts=N:K,N:12\n",
            "lists contracts 'N:12', not 'Name:fingerprint'"
        ),
        (UInt16(4), "abi=1\n", "has format 4, the host reads formats 1 to 3"),
    ])
    func aBadSectionIsRefusedWithWhatIsWrong(format: UInt16, payload: String, problem: String) {
        let bytes = section(
            format: format,
            payload.replacingOccurrences(of: "kit=K", with: "kit=\(kit)").replacingOccurrences(of: "N:K", with: "N:\(kit)"))
        #expect(throws: DescriptorError.malformed(problem)) { try ModuleDescriptor(section: bytes) }
    }
}
