public import Glibc
import Synchronization

/// The trust rules for paths, as sshd's StrictModes has them for its files: what the host runs
/// or reads must be owned by root or the running user and not writable by group or others,
/// and so must every folder above it (a sticky folder such as `/tmp` may be writable by all:
/// in it only a file's owner may rename or remove the file).
///
/// A symlink is followed only from a folder that no one else can write, sticky or not: in
/// `/tmp` anyone may plant a link under a name not yet taken, and a folder another user can
/// write lets them point the link elsewhere between a check and its use.
@_spi(Host) public enum TrustedPath {
    /// Most symlinks followed on one path, as the kernel allows (`ELOOP` past it).
    static let maximumLinks = 40

    /// `path` made absolute (against the current folder) with every symlink resolved, each
    /// one taken only from a folder that passes ``checkFolderHoldingSymlink(_:link:)``.
    ///
    /// - Throws: ``TrustError``: `.missing` when nothing is at `path`, `.danglingSymlink`,
    ///   `.symlinkLoop`, `.untrustedSymlink`, `.unreadable` or `.nulInPath`.
    public static func resolve(_ path: String) throws(TrustError) -> String {
        guard let (folder, name) = try resolveFolder(of: path) else {
            let absolute = path.hasPrefix("/") ? path : FilePaths.currentFolder + "/" + path
            return try walk(components(of: absolute), from: [], path: path)
        }
        return try walk([name], from: folder, path: path)
    }

    /// The folder of `path` (made absolute against the current folder) with every symlink
    /// resolved, as components, and the path's last component; `nil` when that is not a name
    /// (`/`, a trailing `.` or `..`). A caller then looks the name up in that folder itself
    /// (``TrustedFile`` does, relative to the folder's descriptor).
    static func resolveFolder(of path: String) throws(TrustError) -> (folder: [String], name: String)? {
        guard !path.utf8.contains(0) else { throw .nulInPath(path) }
        let absolute = path.hasPrefix("/") ? path : FilePaths.currentFolder + "/" + path
        guard let slash = absolute.lastIndex(of: "/") else { return nil }
        let name = String(absolute[absolute.index(after: slash)...])
        let folder = String(absolute[..<slash])
        guard !name.isEmpty, name != ".", name != ".." else { return nil }
        // The folder is resolved once per process: the libraries of a run share a few folders,
        // and each component costs an lstat. Only a folder whose every symlink passed the
        // check is remembered.
        if let known = resolvedFolders.withLock({ $0[folder] }) { return (known, name) }
        // Only what lies below the nearest folder above it that is resolved already: the
        // files of a run (libraries, strings, data) share most of their way from /.
        let (start, below) = nearestResolved(above: folder)
        let resolvedFolder = components(of: try walk(below, from: start, path: path))
        resolvedFolders.withLock { $0[folder] = resolvedFolder }
        return (resolvedFolder, name)
    }

    /// The resolution of the nearest folder above `folder` (as written) that this process has
    /// resolved, and the components of `folder` below it; `([], all of them)` when there is none.
    private static func nearestResolved(above folder: String) -> (start: [String], below: [String]) {
        let all = components(of: folder)
        // Each prefix built by hand and looked up under the lock: slices and `joined` are
        // unspecialised generics, each costing a scan of every conformance record the first
        // time after a library is opened.
        var prefixes: [String] = []
        prefixes.reserveCapacity(all.count)
        var prefix = ""
        for component in all {
            prefix.append("/")
            prefix.append(component)
            prefixes.append(prefix)
        }
        return resolvedFolders.withLock { known in
            var count = all.count - 1
            while count > 0 {
                if let start = known[prefixes[count - 1]] {
                    var below: [String] = []
                    below.reserveCapacity(all.count - count)
                    for index in count..<all.count { below.append(all[index]) }
                    return (start, below)
                }
                count -= 1
            }
            return ([], all)
        }
    }

    /// Folders resolved so far, by the path as written.
    private static let resolvedFolders = Mutex<[String: [String]]>([:])

    private static func components(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Follows `remaining` from the resolved folder `start`, symlinks and all (see ``resolve(_:)``).
    private static func walk(_ remaining: [String], from start: [String], path: String) throws(TrustError) -> String {
        var pending = Array(remaining.reversed())
        var current = start
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            if component == ".." {
                _ = current.popLast()
                continue
            }
            let folder = joined(current)
            let candidate = joined(current + [component])
            var status = stat()
            guard lstat(candidate, &status) == 0 else {
                let code = errno
                if code == ENOENT { throw links == 0 ? .missing : .danglingSymlink(path) }
                throw .unreadable(candidate, String(cString: strerror(code)))
            }
            guard status.st_mode & S_IFMT == S_IFLNK else {
                current.append(component)
                continue
            }
            links += 1
            guard links <= maximumLinks else { throw .symlinkLoop(path) }
            try checkFolderHoldingSymlink(folder, link: candidate)
            let target = try readLink(candidate)
            if target.hasPrefix("/") { current = [] }
            pending += components(of: target).reversed()
        }
        return joined(current)
    }

    /// Checks every folder above `path` (which must be absolute and resolved), up to `/` or to
    /// a folder already checked whole in this process: the folders ``TrustedFile`` holds and
    /// checks (``TrustedFolder``), so each is checked once a run whoever asks.
    public static func checkFolders(above path: String) throws(TrustError) {
        let folder = FilePaths.folder(of: path)
        do throws(TrustError) {
            try TrustedFolder.open(components(of: folder)).checkTrusted()
        } catch .missing {
            throw .unreadable(folder, String(cString: strerror(ENOENT)))
        }
    }

    /// Checks the owner and mode of a file or folder already examined with `stat`.
    public static func checkOwnerAndMode(of path: String, _ status: stat, isFolder: Bool) throws(TrustError) {
        let user = runningUser
        guard status.st_uid == 0 || status.st_uid == user else {
            throw .foreignOwner(path, owner: userName(status.st_uid), mode: status.st_mode, isFolder: isFolder, runningAs: userName(user))
        }
        let sticky = isFolder && status.st_mode & S_ISVTX != 0
        guard sticky || status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .writableByOthers(path, owner: userName(status.st_uid), mode: status.st_mode, isFolder: isFolder)
        }
    }

    /// A symlink may be followed only from a folder that root or the running user owns and
    /// that no one else may write, sticky or not.
    static func checkFolderHoldingSymlink(_ folder: String, link: String) throws(TrustError) {
        var status = stat()
        guard stat(folder, &status) == 0 else { throw .unreadable(folder, systemError()) }
        let owned = status.st_uid == 0 || status.st_uid == runningUser
        guard owned && status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw .untrustedSymlink(link, folder: folder, owner: userName(status.st_uid), mode: status.st_mode)
        }
    }

    /// "name (uid N)", or "uid N" for a user the system does not know.
    public static func userName(_ uid: uid_t) -> String {
        accountName(uid).map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
    }

    /// The account name of `uid`, or nil for a user the system does not know; reentrant (a
    /// run checks libraries on two threads).
    public static func accountName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 1024)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return nil
        }
        return String(cString: name)
    }

    /// The user the host runs as, asked once: the host never changes it.
    static let runningUser = geteuid()

    private static func readLink(_ path: String) throws(TrustError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .unreadable(path, systemError()) }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func joined(_ components: [String]) -> String {
        guard !components.isEmpty else { return "/" }
        var path = ""
        for component in components {
            path.append("/")
            path.append(component)
        }
        return path
    }

    static func systemError() -> String { String(cString: strerror(errno)) }
}
