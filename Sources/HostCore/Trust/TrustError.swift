import Glibc

/// A file the host will not read or load, and why; the text names the file and the fix.
enum TrustError: Error, Equatable {
    case missing
    case unreadable(String, String)
    case symlinkLoop(String)
    case danglingSymlink(String)
    case notRegular(String, String)
    case foreignOwner(String, owner: String, mode: mode_t, isFolder: Bool, runningAs: String)
    case writableByOthers(String, owner: String, mode: mode_t, isFolder: Bool)
    case changed(String)
    case tooLarge(String, size: Int, limit: Int)
}

extension TrustError {
    /// The problem, starting with the file itself when it is the culprit ("is a FIFO …") or the
    /// folder above it ("is in folder '/x', which …"), for a caller that names the file first.
    func cause(for file: String) -> String {
        func mode(_ value: mode_t) -> String { "0" + String(value & 0o7777, radix: 8) }
        func subject(_ path: String, isFolder: Bool) -> String {
            isFolder ? "is in folder '\(Escaped(path))', which" : path == file ? "" : "resolves to '\(Escaped(path))', which"
        }
        func join(_ subject: String, _ rest: String) -> String { subject.isEmpty ? rest : subject + " " + rest }
        switch self {
        case .missing:
            return "does not exist"
        case .unreadable(let path, let reason):
            return join(subject(path, isFolder: path != file), "cannot be read: \(reason)")
        case .symlinkLoop:
            return "is a symlink loop; point it at a real file"
        case .danglingSymlink:
            return "is a symlink to a file that does not exist"
        case .notRegular(let path, let kind):
            return join(subject(path, isFolder: false), "is \(kind), not a regular file; give the path of a regular file")
        case .foreignOwner(let path, let owner, let value, let isFolder, let user):
            return join(
                subject(path, isFolder: isFolder),
                "is owned by \(owner) (mode \(mode(value))), not by root\(geteuid() == 0 ? "" : " or \(user)"), so another user could change it; "
                    + "fix it with 'chown \(Self.ownerFix) \(Escaped(path))' or move it")
        case .writableByOthers(let path, let owner, let value, let isFolder):
            let who = value & S_IWGRP != 0 && value & S_IWOTH != 0 ? "group and others" : value & S_IWGRP != 0 ? "its group" : "others"
            return join(
                subject(path, isFolder: isFolder),
                "is writable by \(who) (mode \(mode(value)), owner \(owner)), so another user could change it; "
                    + "fix it with 'chmod go-w \(Escaped(path))'")
        case .changed(let path):
            return join(subject(path, isFolder: false), "changed while it was being opened; try again")
        case .tooLarge(let path, let size, let limit):
            return join(subject(path, isFolder: false), "is \(size) bytes, more than the \(limit) allowed")
        }
    }

    /// `root` for root, else the running user's name.
    private static var ownerFix: String {
        let uid = geteuid()
        guard uid != 0, let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }
}
