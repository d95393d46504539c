import Glibc

/// A file the host will not read or load, and why.
///
/// The host turns each case into a message in the person's language that names the file and
/// the fix; ``description`` is a short English form for the kit's own errors.
@_spi(Host) public enum TrustError: Error, Equatable, Sendable {
    case missing
    case unreadable(String, String)
    case symlinkLoop(String)
    case danglingSymlink(String)
    /// The path goes through a symlink that another user could replace: it lies in `folder`,
    /// which someone other than root or the running user owns or may write (sticky or not).
    /// Modes are `mode_t` values (`UInt32` on Linux).
    case untrustedSymlink(String, folder: String, owner: String, mode: UInt32)
    /// The path holds a NUL character, which every system call would cut it at.
    case nulInPath(String)
    case notRegular(String, String)
    case foreignOwner(String, owner: String, mode: UInt32, isFolder: Bool, runningAs: String)
    case writableByOthers(String, owner: String, mode: UInt32, isFolder: Bool)
    case changed(String)
    case tooLarge(String, size: Int, limit: Int)
}

extension TrustError {
    /// ``description`` for a message that names `file` first: "is writable by others …" when
    /// the problem is the file itself, "is refused: '/folder' is …" when it is elsewhere.
    public func reason(for file: String) -> String {
        let own = "'\(EscapedPath(file))' "
        return description.hasPrefix(own) ? String(description.dropFirst(own.count)) : "is refused: \(description)"
    }
}

extension TrustError: CustomStringConvertible {
    public var description: String {
        func mode(_ value: mode_t) -> String { "0" + String(value & 0o7777, radix: 8) }
        switch self {
        case .missing: return "does not exist"
        case .unreadable(let path, let reason): return "'\(EscapedPath(path))' cannot be read: \(reason)"
        case .symlinkLoop(let path): return "'\(EscapedPath(path))' is a symlink loop"
        case .danglingSymlink(let path): return "'\(EscapedPath(path))' is a symlink to a file that does not exist"
        case .untrustedSymlink(let link, let folder, let owner, let value):
            return
                "goes through symlink '\(EscapedPath(link))' in '\(EscapedPath(folder))' (owner \(owner), mode \(mode(value))), which another user could replace"
        case .nulInPath(let path): return "'\(EscapedPath(path))' holds a NUL character"
        case .notRegular(let path, let kind): return "'\(EscapedPath(path))' is \(kind), not a regular file"
        case .foreignOwner(let path, let owner, let value, _, _):
            return "'\(EscapedPath(path))' is owned by \(owner) (mode \(mode(value))), so another user could change it"
        case .writableByOthers(let path, let owner, let value, _):
            return "'\(EscapedPath(path))' is writable by others than its owner (mode \(mode(value)), owner \(owner))"
        case .changed(let path): return "'\(EscapedPath(path))' changed while it was being opened"
        case .tooLarge(let path, let size, let limit): return "'\(EscapedPath(path))' is \(size) bytes, more than the \(limit) allowed"
        }
    }
}
