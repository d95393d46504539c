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
        return bytes(of: descriptor).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What is left to read on `descriptor` (any open file, from where it stands) up to its
    /// end, or `nil` when a read fails.
    package static func bytes(of descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }
}
