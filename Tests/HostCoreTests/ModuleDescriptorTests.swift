import Foundation
import Testing

@testable import HostCore

/// The descriptor section's two formats: 2 records the SDK version; 1 (no `sdk` line) is still
/// read, so a library built with an older kit is told which kit it needs.
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
        (UInt16(3), "abi=1\n", "has format 3, the host reads formats 1 to 2"),
    ])
    func aBadSectionIsRefusedWithWhatIsWrong(format: UInt16, payload: String, problem: String) {
        let bytes = section(format: format, payload.replacingOccurrences(of: "kit=K", with: "kit=\(kit)"))
        #expect(throws: DescriptorError.malformed(problem)) { try ModuleDescriptor(section: bytes) }
    }
}
