import Glibc

/// A file of `/proc`, read whole. Such a file reports no size and is made as it is read:
/// FoundationEssentials' `String(contentsOfFile:)` returns its first read only (about 4 KiB of
/// `/proc/self/maps`, whose libraries go on well past that), so it is read here to its end.
package enum ProcFile {
    /// The text of `path`, or `nil` when it cannot be opened or read.
    package static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[..<count]
        }
    }
}
