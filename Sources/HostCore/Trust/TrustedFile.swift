import Glibc
import Synchronization

/// A file the host is about to read or load, checked as sshd's StrictModes checks its files:
/// a regular file, owned by root or the running user, not writable by group or others, in
/// folders that are all owned by root or the running user and not writable by group or others
/// (a sticky folder such as `/tmp` may be writable by others).
///
/// The file is opened once, without following a last symlink and without blocking (a FIFO
/// cannot hang the host), and the open descriptor is checked to be the file that was examined.
final class TrustedFile {
    /// The path as given.
    let path: String
    /// The path with every symlink resolved: what was checked and opened.
    let resolvedPath: String
    let descriptor: Int32
    let identity: FileIdentity

    /// Opens `path` after checking it and every folder above it.
    ///
    /// - Parameter maximumSize: The largest file accepted, in bytes.
    /// - Throws: ``TrustError`` naming the file or folder, its owner and mode, and the fix.
    init(path: String, maximumSize: Int) throws(TrustError) {
        self.path = path
        var linkStatus = stat()
        guard lstat(path, &linkStatus) == 0 else {
            throw errno == ENOENT ? .missing : .unreadable(path, Self.systemError())
        }
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ELOOP { throw .symlinkLoop(path) }
            if code == ENOENT { throw .danglingSymlink(path) }
            throw .unreadable(path, String(cString: strerror(code)))
        }
        resolvedPath = String(cString: resolved)
        free(resolved)
        var status = stat()
        guard stat(resolvedPath, &status) == 0 else { throw .unreadable(resolvedPath, Self.systemError()) }
        if let kind = Self.nonRegularKind(status.st_mode) { throw .notRegular(resolvedPath, kind) }
        try Self.checkOwnerAndMode(of: resolvedPath, status, isFolder: false)
        var folder = resolvedPath
        var checked: [String] = []
        while let slash = folder.lastIndex(of: "/") {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            if Self.trustedFolders.withLock({ $0.contains(folder) }) { break }
            var folderStatus = stat()
            guard stat(folder, &folderStatus) == 0 else { throw .unreadable(folder, Self.systemError()) }
            try Self.checkOwnerAndMode(of: folder, folderStatus, isFolder: true)
            checked.append(folder)
            if folder == "/" { break }
        }
        // Only a whole walk up to a trusted folder (or /) makes these folders trusted.
        Self.trustedFolders.withLock { $0.formUnion(checked) }
        let fd = open(resolvedPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable(resolvedPath, Self.systemError()) }
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

    /// Folders already checked in this process, with every folder above them: the libraries
    /// of one run usually share all of them.
    private static let trustedFolders = Mutex<Set<String>>([])

    /// The whole file (its size was bounded when it was opened).
    func contents() throws(TrustError) -> [UInt8] {
        // Sized to the file as opened (already within its limit): a file that grew since is
        // refused, and a small file touches no more memory than it needs.
        let expected = Int(identity.size)
        var failure: TrustError?
        let bytes = [UInt8](unsafeUninitializedCapacity: expected + 1) { buffer, count in
            while count < buffer.count {
                let read = pread(descriptor, buffer.baseAddress.map { $0 + count }, buffer.count - count, off_t(count))
                if read < 0 && errno == EINTR { continue }
                if read < 0 { failure = .unreadable(resolvedPath, Self.systemError()) }
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

    private static func checkOwnerAndMode(of path: String, _ status: stat, isFolder: Bool) throws(TrustError) {
        let user = geteuid()
        guard status.st_uid == 0 || status.st_uid == user else {
            throw .foreignOwner(path, owner: userName(status.st_uid), mode: status.st_mode, isFolder: isFolder, runningAs: userName(user))
        }
        let sticky = isFolder && status.st_mode & S_ISVTX != 0
        // In a sticky folder only a file's owner may rename or remove it (as /tmp).
        let groupWritable = status.st_mode & S_IWGRP != 0 && !sticky
        let othersWritable = status.st_mode & S_IWOTH != 0 && !sticky
        guard !groupWritable && !othersWritable else {
            throw .writableByOthers(path, owner: userName(status.st_uid), mode: status.st_mode, isFolder: isFolder)
        }
    }

    static func userName(_ uid: uid_t) -> String {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return "uid \(uid)"
        }
        return "\(String(cString: name)) (uid \(uid))"
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}

/// What identifies one build of a file: a library that changed since its crash is tried again.
struct FileIdentity: Sendable, Equatable {
    let size: Int64
    let modified: Int64
    let modifiedNanoseconds: Int64
    let inode: UInt64

    init(size: Int64, modified: Int64, modifiedNanoseconds: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.modifiedNanoseconds = modifiedNanoseconds
        self.inode = inode
    }

    init(_ status: stat) {
        self.init(
            size: Int64(status.st_size), modified: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: Int64(status.st_mtim.tv_nsec),
            inode: UInt64(status.st_ino))
    }
}
