import FoundationEssentials
import Glibc
import PhotosDomain

/// Saves a file a person asked for (a download): complete or not at all, with the mode the
/// person's umask gives (0644 usually; it is a picture, not a secret), and never over an
/// existing file unless `replacing`.
///
/// The bytes go to a temporary file in the same folder (`O_EXCL`), are flushed, then take the
/// final name: by `rename` when replacing, else by `link`, which fails when the name exists,
/// so a file that appeared meanwhile is not overwritten either.
enum SavedFile {
    static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws(PhotoError) {
        let temporary = path + ".partial-" + UUID().uuidString
        // 0666 less the umask, as for any file a program makes for a person.
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(path) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                let error = failure(path)
                close(descriptor)
                unlink(temporary)
                throw error
            }
            offset += written
        }
        guard fsync(descriptor) == 0, close(descriptor) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        defer { unlink(temporary) }
        if replacing {
            guard rename(temporary, path) == 0 else { throw failure(path) }
            return
        }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw .fileExists(path) }
            throw failure(path)
        }
    }

    private static func failure(_ path: String) -> PhotoError {
        .storage("'\(path)': \(String(cString: strerror(errno)))")
    }
}
