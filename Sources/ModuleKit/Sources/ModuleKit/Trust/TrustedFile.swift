public import Glibc

/// A file the host is about to read or load, checked by the rules of ``TrustedPath``: a regular
/// file that root or the running user owns and no one else may write, in folders likewise, and
/// reached through symlinks only in folders no one else may write.
///
/// The path is resolved once. The file is opened from the resolved path without following a
/// last symlink and without blocking (a FIFO cannot hang the host), and the open descriptor is
/// checked to be the file that was examined: what is then read, hashed or loaded (see
/// ``TrustedLibrary``) is that open file, never the path again.
@_spi(Host) public final class TrustedFile: Sendable {
    /// The path as given.
    public let path: String
    /// The path with every symlink resolved: what was checked and opened.
    public let resolvedPath: String
    public let descriptor: Int32
    public let identity: FileIdentity

    /// Opens `path` after checking it and every folder on the way to it.
    ///
    /// - Parameter maximumSize: The largest file accepted, in bytes.
    /// - Throws: ``TrustError`` naming the file or folder, its owner and mode.
    public init(path: String, maximumSize: Int) throws(TrustError) {
        self.path = path
        let (resolved, examined) = try TrustedPath.resolveExamined(path)
        resolvedPath = resolved
        // The walk's own lstat of the file when it has one: the same question, asked once.
        var status = examined ?? stat()
        guard examined != nil || lstat(resolvedPath, &status) == 0 else { throw .unreadable(resolvedPath, TrustedPath.systemError()) }
        if let kind = Self.nonRegularKind(status.st_mode) { throw .notRegular(resolvedPath, kind) }
        try TrustedPath.checkOwnerAndMode(of: resolvedPath, status, isFolder: false)
        try TrustedPath.checkFolders(above: resolvedPath)
        let fd = open(resolvedPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(resolvedPath, TrustedPath.systemError()) }
        var opened = stat()
        guard fstat(fd, &opened) == 0, opened.st_dev == status.st_dev, opened.st_ino == status.st_ino,
            (opened.st_mode & S_IFMT) == S_IFREG
        else {
            close(fd)
            throw .changed(resolvedPath)
        }
        guard Int(opened.st_size) <= maximumSize else {
            close(fd)
            throw .tooLarge(resolvedPath, size: Int(opened.st_size), limit: maximumSize)
        }
        descriptor = fd
        identity = FileIdentity(opened)
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
