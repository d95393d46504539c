import Foundation

/// The hostile C fixtures carry placeholders for the SDK version and the compiler (see
/// `Tests/Fixtures/Hostile/descriptor.h`), so that nothing loads them by accident. A test arms
/// one by copying it into a private folder with the build's real SDK version and compiler
/// written over the placeholders: the host then passes its file checks and really opens it.
public enum HostileLibrary {
    /// What the build's modules record: the SDK version and the compiler, read from a real
    /// module's descriptor.
    public struct BuildRecord: Sendable, Equatable {
        public let sdk: String
        public let compiler: String

        public init(sdk: String, compiler: String) {
            self.sdk = sdk
            self.compiler = compiler
        }
    }

    public static func buildRecord() throws -> BuildRecord {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureProvider"))))
        func value(_ key: String) throws -> String {
            let marker = Array("\n\(key)=".utf8)
            guard let start = find(marker, in: bytes) else { throw CocoaError(.fileReadCorruptFile) }
            let rest = bytes[(start + marker.count)...]
            return String(decoding: rest.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
        return BuildRecord(sdk: try value("sdk"), compiler: try value("compiler"))
    }

    /// A copy of `lib<name>.so` with the real SDK version and compiler, in a new folder of mode 0700.
    public static func armedCopy(of name: String) throws -> String {
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let path = folder + "/lib\(name).so"
        try Data(try arm([UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library(name)))), name: name))
            .write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    /// Arms the library at `path` in place: a fixture built from the hostile C sources (by gcc, say).
    public static func arm(libraryAt path: String, name: String) throws {
        let url = URL(fileURLWithPath: path)
        try Data(try arm([UInt8](try Data(contentsOf: url)), name: name)).write(to: url)
    }

    /// The bytes of a library built with `MODHOST_TEST_DESCRIPTOR(name)`, armed.
    public static func arm(_ library: [UInt8], name: String) throws -> [UInt8] {
        var bytes = library
        let placeholder = Array(("sdk=0.0.0\ncompiler=" + String(repeating: "f", count: 90) + "\nname=\(name)\nversion=0.0.1").utf8)
        guard let start = find(placeholder, in: bytes) else { throw CocoaError(.fileReadCorruptFile) }
        let record = try buildRecord()
        var armed = Array("sdk=\(record.sdk)\ncompiler=\(record.compiler)\nname=\(name)\nversion=0.0.1".utf8)
        // Zeros after the version keep the section's length: "0.0.1000…" is still a version.
        guard armed.count <= placeholder.count, placeholder.count - armed.count <= 59 else { throw CocoaError(.fileWriteUnknown) }
        armed += [UInt8](repeating: UInt8(ascii: "0"), count: placeholder.count - armed.count)
        bytes.replaceSubrange(start..<start + placeholder.count, with: armed)
        return bytes
    }

    /// The first position of `needle` in `haystack`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
