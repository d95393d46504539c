import Foundation

/// Writes files so that a reader (or a restart after `kill -9`) sees the old content or the
/// new, never a torn mix: a temporary file in the same folder, fsync, then rename.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".partial-" + UUID().uuidString
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw AtomicFileError(path: path, reason: String(cString: strerror(errno))) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw AtomicFileError(path: path, reason: reason)
            }
            offset += written
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw AtomicFileError(path: path, reason: reason)
        }
    }
}

struct AtomicFileError: Error, CustomStringConvertible {
    let path: String
    let reason: String
    var description: String { "cannot write '\(path)': \(reason)" }
}
