import Glibc

/// A folder removed with everything in it, from descriptors: a symlink inside is removed, never
/// followed, so a folder someone else writes into cannot send the removal elsewhere.
package enum FolderTree {
    /// Removes `name` in the folder open as `parent` (a file, a link, or a folder and all it
    /// holds); `true` when it is gone (or was never there).
    @discardableResult
    package static func remove(_ name: String, in parent: Int32) -> Bool {
        remove(name, in: parent, depth: 0)
    }

    /// Removes `name` in the folder at `path` (not a symlink itself); `true` when it is gone.
    @discardableResult
    package static func remove(_ name: String, inFolderAt path: String) -> Bool {
        let parent = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard parent >= 0 else { return errno == ENOENT }
        defer { close(parent) }
        return remove(name, in: parent)
    }

    /// Deeper than this is not a temporary folder anyone meant (a loop cannot be: no link is
    /// followed); it stays rather than run out of descriptors.
    private static let deepest = 64

    private static func remove(_ name: String, in parent: Int32, depth: Int) -> Bool {
        // Most often an empty folder: one call.
        if unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return true }
        if errno == ENOTDIR { return unlinkat(parent, name, 0) == 0 || errno == ENOENT }
        guard errno == ENOTEMPTY || errno == EEXIST, depth < deepest else { return false }
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return false }
        guard let listing = fdopendir(folder) else {
            close(folder)
            return false
        }
        var names: [String] = []
        while let entry = readdir(listing) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if entryName != "." && entryName != ".." { names.append(entryName) }
        }
        for entryName in names { _ = remove(entryName, in: folder, depth: depth + 1) }
        closedir(listing)
        return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT
    }
}
