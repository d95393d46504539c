import Foundation
@_spi(Host) import ModuleKit
import TestSupport
import Testing

@testable import ModuleKit

/// The kit's one SHA-256, through libcrypto: bytes, a file from its descriptor, and the
/// deprecated calls of modules built before 1.7.0, which give the same digests.
@Suite struct SHA256Tests {
    static let vectors = [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ]

    @Test func bytesAndFilesDigestAsTheStandardSays() throws {
        let folder = try TestEnvironment.temporaryFolder()
        for (input, digest) in Self.vectors {
            #expect(try SHA256.hex(of: Array(input.utf8)) == digest)
            #expect(try SHA256.digest(of: Array(input.utf8)).count == 32)
            let path = folder + "/vector"
            try Data(input.utf8).write(to: URL(fileURLWithPath: path))
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(descriptor) }
            // A file read from its start whatever its offset, which is left alone.
            _ = lseek(descriptor, 1, SEEK_SET)
            #expect(try SHA256.hex(ofFile: descriptor) == digest)
            #expect(lseek(descriptor, 0, SEEK_CUR) == 1)
        }
    }

    @Test func aFileThatCannotBeReadIsSaidNotDigested() {
        #expect(throws: SHA256.Unavailable.self) { try SHA256.hex(ofFile: -1) }
    }

    /// What modules built before 1.7.0 call, and the implementation they used, agree with
    /// libcrypto on every vector and on bytes of every length around a block.
    @Test func theDeprecatedCallsAndTheSwiftImplementationGiveTheSameDigests() throws {
        let legacy: any LegacyDigests = LegacyCaller()
        var inputs = Self.vectors.map { Array($0.0.utf8) }
        inputs += (50...130).map { [UInt8](repeating: UInt8($0 % 251), count: $0) }
        for bytes in inputs {
            let digest = try SHA256.digest(of: bytes)
            #expect(legacy.digest(bytes) == digest)
            #expect(LegacySHA256.digest(bytes) == digest)
            #expect(legacy.hex(bytes) == (try SHA256.hex(of: bytes)))
        }
    }
}

/// The deprecated calls, reached through a protocol so that the test itself uses nothing
/// deprecated.
private protocol LegacyDigests {
    func digest(_ bytes: [UInt8]) -> [UInt8]
    func hex(_ bytes: [UInt8]) -> String
}

private struct LegacyCaller: LegacyDigests {
    @available(*, deprecated)
    func digest(_ bytes: [UInt8]) -> [UInt8] { SHA256.digest(bytes) }
    @available(*, deprecated)
    func hex(_ bytes: [UInt8]) -> String { SHA256.hex(bytes) }
}
