import Foundation

/// The hostile C fixtures carry a placeholder kit fingerprint (32 'f's), so that nothing loads
/// them by accident. A test arms one by copying it into a private folder with the real
/// fingerprint written over the placeholder: the host then passes its file checks and really
/// opens it.
public enum HostileLibrary {
    /// The kit fingerprint the build's modules carry, read from a real module's descriptor.
    public static func kitFingerprint() throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureProvider"))))
        let marker = Array("\nkit=".utf8)
        guard let start = find(marker, in: bytes) else { throw CocoaError(.fileReadCorruptFile) }
        return String(decoding: bytes[(start + marker.count)..<(start + marker.count + 32)], as: UTF8.self)
    }

    /// A copy of `lib<name>.so` with the real fingerprint, in a new folder of mode 0700.
    public static func armedCopy(of name: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library(name))))
        guard let start = find([UInt8](repeating: UInt8(ascii: "f"), count: 32), in: bytes) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        bytes.replaceSubrange(start..<start + 32, with: Array(try kitFingerprint().utf8))
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let path = folder + "/lib\(name).so"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    /// The first position of `needle` in `haystack`.
    public static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
