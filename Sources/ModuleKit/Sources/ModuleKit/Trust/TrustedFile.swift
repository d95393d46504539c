public import Glibc

/// A file the host is about to read or load, checked by the rules of ``TrustedPath``: a regular
/// file that root or the running user owns and no one else may write, in folders likewise, and
/// reached through symlinks only in folders no one else may write.
///
/// The path is resolved once. The file is opened relative to its folder's held descriptor
/// without following a last symlink and without blocking (a FIFO cannot hang the host), and the
/// open descriptor is checked to be the file that was examined: what is then read, hashed or
/// loaded (see ``TrustedLibrary``) is that open file, never the path again.
@_spi(Host) public final class TrustedFile: Sendable {
    /// The path as given.
    public let path: String
    /// The path with every symlink resolved: what was checked and opened.
    public let resolvedPath: String
    public let descriptor: Int32
    public let identity: FileIdentity

    /// Opens `path` after checking it and every folder on the way to it.
    ///
    /// The file is looked up, checked and opened relative to its folder's held descriptor
    /// (``TrustedFolder``): one `fstatat` before the open (a device or FIFO is never opened),
    /// one `fstat` after (what was opened is what was examined).
    ///
    /// - Parameter maximumSize: The largest file accepted, in bytes.
    /// - Throws: ``TrustError`` naming the file or folder, its owner and mode.
    public init(path: String, maximumSize: Int) throws(TrustError) {
        self.path = path
        var target = path
        // A path that does not end in a name (`lib.so/`) or whose last component is a symlink
        // is resolved by the path rules and looked up again, in its folder walked afresh; one
        // that turns into a symlink again was swapped meanwhile.
        for attempt in 0..<3 {
            guard let (components, name) = try TrustedPath.resolveFolder(of: target) else {
                let resolved = try TrustedPath.resolve(target)
                guard resolved != target, resolved != "/" else { break }
                target = resolved
                continue
            }
            let (folder, status) = try Self.examine(name, in: components, fresh: attempt > 0)
            if status.st_mode & S_IFMT == S_IFLNK {
                target = try TrustedPath.resolve(target)
                continue
            }
            let resolved = Self.path(of: name, in: folder)
            if let kind = Self.nonRegularKind(status.st_mode) { throw .notRegular(resolved, kind) }
            try TrustedPath.checkOwnerAndMode(of: resolved, status, isFolder: false)
            try folder.checkTrusted()
            // Kept until the open is done: the held table may drop it meanwhile (its limit,
            // another thread's fresh walk), and its descriptor closes with it.
            let fd = withExtendedLifetime(folder) {
                openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            }
            guard fd >= 0 else { throw .unreadable(resolved, TrustedPath.systemError()) }
            var opened = stat()
            guard fstat(fd, &opened) == 0, opened.st_dev == status.st_dev, opened.st_ino == status.st_ino,
                (opened.st_mode & S_IFMT) == S_IFREG
            else {
                close(fd)
                throw .changed(resolved)
            }
            guard Int(opened.st_size) <= maximumSize else {
                close(fd)
                throw .tooLarge(resolved, size: Int(opened.st_size), limit: maximumSize)
            }
            resolvedPath = resolved
            descriptor = fd
            identity = FileIdentity(opened)
            return
        }
        // `/` itself, or a symlink swapped in again and again.
        let resolved = try TrustedPath.resolve(target)
        var status = stat()
        guard lstat(resolved, &status) == 0 else { throw .unreadable(resolved, TrustedPath.systemError()) }
        if let kind = Self.nonRegularKind(status.st_mode) { throw .notRegular(resolved, kind) }
        throw .changed(resolved)
    }

    private static func path(of name: String, in folder: TrustedFolder) -> String {
        folder.path == "/" ? "/" + name : folder.path + "/" + name
    }

    /// The folder `components` held open (or walked afresh), and `name`'s `lstat` in it. When
    /// the held folder no longer has `name` and another folder now stands at its path (it was
    /// removed and made again), that one is walked and asked.
    private static func examine(_ name: String, in components: [String], fresh: Bool) throws(TrustError) -> (TrustedFolder, stat) {
        var status = stat()
        let folder = try TrustedFolder.open(components, fresh: fresh)
        let found = withExtendedLifetime(folder) { fstatat(folder.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 }
        if found { return (folder, status) }
        guard errno == ENOENT else { throw .unreadable(path(of: name, in: folder), TrustedPath.systemError()) }
        guard !fresh, !folder.standsAtItsPath() else { throw .missing }
        let renewed = try TrustedFolder.open(components, fresh: true)
        let foundAgain = withExtendedLifetime(renewed) { fstatat(renewed.descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 }
        guard foundAgain else {
            if errno == ENOENT { throw .missing }
            throw .unreadable(path(of: name, in: renewed), TrustedPath.systemError())
        }
        return (renewed, status)
    }

    deinit { close(descriptor) }

    /// The whole file (its size was bounded when it was opened).
    public func contents() throws(TrustError) -> [UInt8] {
        // Sized to the file as opened (already within its limit): a file that grew since is
        // refused, and a small file touches no more memory than it needs.
        let expected = Int(identity.size)
        var failure: TrustError?
        let bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            while count < buffer.count {
                let read = pread(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count, off_t(count))
                if read < 0 && errno == EINTR { continue }
                if read < 0 { failure = .unreadable(resolvedPath, TrustedPath.systemError()) }
                if read <= 0 { return }
                count += read
            }
        }
        if let failure { throw failure }
        guard bytes.count <= expected else { throw .changed(resolvedPath) }
        return bytes
    }

    private static func nonRegularKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}

/// What identifies one build of a file: a library that changed since its crash is tried again.
@_spi(Host) public struct FileIdentity: Sendable, Equatable {
    public let size: Int64
    public let modified: Int64
    public let modifiedNanoseconds: Int64
    public let inode: UInt64

    public init(size: Int64, modified: Int64, modifiedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    public init(_ status: stat) {
        self.init(
            size: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino))
    }
}
