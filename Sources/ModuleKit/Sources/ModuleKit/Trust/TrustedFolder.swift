import Glibc
import Synchronization

/// A folder on the way to a checked file, held open (`O_PATH`) for the process.
///
/// Each folder is opened from its parent's descriptor without following a symlink, so the
/// chain from `/` is the folders that were examined, whatever is renamed or replaced at their
/// paths later; a file is then looked up, checked and opened relative to its folder's
/// descriptor (see ``TrustedFile``). Each folder is checked by the rules of ``TrustedPath`` once
/// per process: the check belongs to the folder as opened (its device and inode), not to a
/// path.
final class TrustedFolder: Sendable {
    /// The folder's resolved path, for messages.
    let path: String
    let descriptor: Int32
    /// What `fstat` said of the folder when it was opened: its device, inode, owner and mode.
    let status: stat
    let parent: TrustedFolder?
    /// Whether this folder and every one above it passed the rules.
    private let trusted = Mutex(false)

    private init(path: String, descriptor: Int32, status: stat, parent: TrustedFolder?) {
        self.path = path
        self.descriptor = descriptor
        self.status = status
        self.parent = parent
    }

    deinit { close(descriptor) }

    /// The folder whose resolved components are `components` (no symlink among them), opened
    /// from the nearest folder above it this process holds, or from `/`.
    ///
    /// - Parameter fresh: Opens it again even when held (the held one no longer has the file).
    /// - Throws: ``TrustError``: `.missing` when a folder on the way is gone, `.changed` when
    ///   one became a symlink or a file since the path was resolved, `.unreadable` otherwise.
    static func open(_ components: [String], fresh: Bool = false) throws(TrustError) -> TrustedFolder {
        let path = TrustedPath.joined(components)
        if !fresh, let known = held.withLock({ $0[path] }) { return known }
        let folder: TrustedFolder
        if let name = components.last {
            let parent = try open(Array(components.dropLast()), fresh: fresh)
            let fd = openat(parent.descriptor, name, pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { throw failure(path) }
            folder = try examined(fd, path: path, parent: parent)
        } else {
            let fd = Glibc.open("/", pathOnly | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { throw failure(path) }
            folder = try examined(fd, path: path, parent: nil)
        }
        held.withLock { held in
            // A run needs a few dozen folders; a long-lived process that reads from many
            // starts over rather than keep a descriptor for each.
            if held.count >= maximumHeld { held.removeAll(keepingCapacity: true) }
            held[path] = folder
        }
        return folder
    }

    /// Whether the folder at this folder's path is still this one (one `stat`): a file
    /// missing from it is then missing, not in a folder made again there since.
    func standsAtItsPath() -> Bool {
        var current = stat()
        return stat(path, &current) == 0 && current.st_dev == status.st_dev && current.st_ino == status.st_ino
    }

    /// Checks this folder and every one above it by the rules of ``TrustedPath``, each once
    /// per process; stops at the first folder already checked.
    func checkTrusted() throws(TrustError) {
        var pending: [TrustedFolder] = []
        var next: TrustedFolder? = self
        while let folder = next, !folder.trusted.withLock({ $0 }) {
            try TrustedPath.checkOwnerAndMode(of: folder.path, folder.status, isFolder: true)
            pending.append(folder)
            next = folder.parent
        }
        // Only a whole chain up to a trusted folder (or /) makes these folders trusted.
        for folder in pending { folder.trusted.withLock { $0 = true } }
    }

    /// `O_PATH` (Linux's value on every architecture it runs on), which Glibc's Swift module
    /// does not export: a descriptor that names the folder without reading it.
    private static let pathOnly: Int32 = 0o10_000_000

    /// Folders held open, by resolved path.
    private static let held = Mutex<[String: TrustedFolder]>([:])
    private static let maximumHeld = 128

    private static func examined(_ fd: Int32, path: String, parent: TrustedFolder?) throws(TrustError) -> TrustedFolder {
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = TrustError.unreadable(path, TrustedPath.systemError())
            close(fd)
            throw error
        }
        return TrustedFolder(path: path, descriptor: fd, status: status, parent: parent)
    }

    private static func failure(_ path: String) -> TrustError {
        switch errno {
        case ENOENT: .missing
        // The path was resolved a moment ago: a symlink or a file there now was put there since.
        case ELOOP, ENOTDIR: .changed(path)
        default: .unreadable(path, TrustedPath.systemError())
        }
    }
}
