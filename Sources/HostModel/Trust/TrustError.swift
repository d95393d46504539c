import Glibc
@_spi(Host) import ModuleKit

// A static function of HostText rather than a member of TrustError: a `package` member added
// to the kit's SPI type is not visible to the host's other targets on this toolchain.
extension HostText {
    /// Why `file` is refused, starting with the file itself when it is the culprit ("is a FIFO
    /// …") or the folder above it ("is in folder '/x', which …"), for a caller that names the
    /// file first; in the person's language.
    package static func refusal(_ error: TrustError, of file: String) -> HostText {
        func mode(_ value: mode_t) -> String { "0" + String(value & 0o7777, radix: 8) }
        func join(_ path: String, isFolder: Bool, _ rest: HostText) -> HostText {
            if isFolder {
                return HostText("trust.in.folder", "is in folder '%@', which %@", [.plain("\(EscapedPath(path))"), .text(rest)])
            }
            if path == file { return rest }
            return HostText("trust.resolves", "resolves to '%@', which %@", [.plain("\(EscapedPath(path))"), .text(rest)])
        }
        switch error {
        case .missing:
            return HostText("trust.missing", "does not exist")
        case .unreadable(let path, let reason):
            return join(path, isFolder: path != file, HostText("trust.unreadable", "cannot be read: %@", [.plain(reason)]))
        case .symlinkLoop:
            return HostText("trust.symlink.loop", "is a symlink loop; point it at a real file")
        case .danglingSymlink:
            return HostText("trust.symlink.dangling", "is a symlink to a file that does not exist")
        case .untrustedSymlink(let link, let folder, let owner, let value):
            return HostText(
                "trust.symlink.untrusted",
                "goes through symlink '%@', in folder '%@' (owner %@, mode %@), where another user could replace it; point at the file itself, or keep the link in a folder only root or you can write",
                [.plain("\(EscapedPath(link))"), .plain("\(EscapedPath(folder))"), .plain(owner), .plain(mode(value))])
        case .nulInPath:
            return HostText("trust.nul", "holds a NUL character (\\u0000); remove it from the path")
        case .notRegular(let path, let kind):
            return join(
                path, isFolder: false,
                HostText("trust.not.regular", "is %@, not a regular file; give the path of a regular file", [.text(Self.kind(kind))]))
        case .foreignOwner(let path, let owner, let value, let isFolder, let user):
            let rest =
                geteuid() == 0
                ? HostText(
                    "trust.owner.root",
                    "is owned by %@ (mode %@), not by root, so another user could change it; fix it with 'chown %@ %@' or move it",
                    [.plain(owner), .plain(mode(value)), .plain(Self.ownerFix), .plain("\(EscapedPath(path))")])
                : HostText(
                    "trust.owner",
                    "is owned by %@ (mode %@), not by root or %@, so another user could change it; fix it with 'chown %@ %@' or move it",
                    [.plain(owner), .plain(mode(value)), .plain(user), .plain(Self.ownerFix), .plain("\(EscapedPath(path))")])
            return join(path, isFolder: isFolder, rest)
        case .writableByOthers(let path, let owner, let value, let isFolder):
            let who =
                value & S_IWGRP != 0 && value & S_IWOTH != 0
                ? HostText("trust.who.both", "group and others")
                : value & S_IWGRP != 0 ? HostText("trust.who.group", "its group") : HostText("trust.who.others", "others")
            return join(
                path, isFolder: isFolder,
                HostText(
                    "trust.writable", "is writable by %@ (mode %@, owner %@), so another user could change it; fix it with 'chmod go-w %@'",
                    [.text(who), .plain(mode(value)), .plain(owner), .plain("\(EscapedPath(path))")]))
        case .changed(let path):
            return join(path, isFolder: false, HostText("trust.changed", "changed while it was being opened; try again"))
        case .tooLarge(let path, let size, let limit):
            return join(
                path, isFolder: false,
                HostText("trust.too.large", "is %@ bytes, more than the %@ allowed", [.plain("\(size)"), .plain("\(limit)")]))
        @unknown default: return HostText("trust.other", "fails the trust rules: %@", [.plain("\(error)")])
        }
    }

    /// What a file is instead of a regular file, as a message.
    private static func kind(_ english: String) -> HostText {
        let keys = [
            "a folder": "trust.kind.folder", "a FIFO (named pipe)": "trust.kind.fifo", "a character device": "trust.kind.character",
            "a block device": "trust.kind.block", "a socket": "trust.kind.socket",
        ]
        return keys[english].map { HostText($0, english) } ?? .plain(english)
    }

    /// `root` for root, else the running user's name.
    private static var ownerFix: String {
        let uid = geteuid()
        return uid == 0 ? "root" : TrustedPath.accountName(uid) ?? "root"
    }
}
