import Glibc

/// A folder removed with everything in it, from descriptors: a symlink inside is removed, never
/// followed, so a folder someone else writes into cannot send the removal elsewhere.
package enum FolderTree {
    /// Removes `name` in the folder open as `parent` (a file, a link, or a folder and all it
    /// holds); `true` when it is gone (or was never there).
    @discardableResult
    package static func remove(_ name: String, in parent: Int32) -> Bool {
        var budget = mostEntries
        return remove(Array(name.utf8CString), in: parent, depth: 0, budget: &budget)
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
    /// More entries than this, and the rest stays: a folder a module filled with millions must
    /// not hold up the host that removes it.
    private static let mostEntries = 100_000

    /// `name` as the folder's entry has it, bytes and its NUL: a name that is not UTF-8 is
    /// removed as it is, not as its repaired text.
    private static func remove(_ name: [CChar], in parent: Int32, depth: Int, budget: inout Int) -> Bool {
        // Most often an empty folder: one call.
        if unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT { return true }
        if errno == ENOTDIR { return unlinkat(parent, name, 0) == 0 || errno == ENOENT }
        guard errno == ENOTEMPTY || errno == EEXIST, depth < deepest else { return false }
        guard let folder = openFolder(name, in: parent) else { return false }
        guard let listing = fdopendir(folder) else {
            close(folder)
            return false
        }
        var names: [[CChar]] = []
        while budget > 0, let entry = readdir(listing) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }.map { CChar(bitPattern: $0) }) }
            if entryName != [46] && entryName != [46, 46] { names.append(entryName + [0]) }
            budget -= 1
        }
        for entryName in names { _ = remove(entryName, in: folder, depth: depth + 1, budget: &budget) }
        closedir(listing)
        return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT
    }

    /// The folder `name` opened to be listed, never through a link; one its owner made
    /// unreadable (`chmod 000`, which its sandbox allows) made readable first, through a
    /// descriptor of that very folder.
    private static func openFolder(_ name: [CChar], in parent: Int32) -> Int32? {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        let folder = openat(parent, name, flags)
        if folder >= 0 { return folder }
        guard errno == EACCES else { return nil }
        let path = openat(parent, name, RunningExecutable.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard path >= 0 else { return nil }
        defer { close(path) }
        guard chmod("/proc/self/fd/\(path)", 0o700) == 0 else { return nil }
        let opened = openat(parent, name, flags)
        return opened >= 0 ? opened : nil
    }
}
