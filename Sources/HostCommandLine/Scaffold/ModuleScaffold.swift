import FoundationEssentials
import Glibc
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

/// `modhost new NAME`: writes a new module package into a folder that does not exist yet.
///
/// Nothing is overwritten: the folder is created with `mkdir` (which fails if anything, a
/// symlink included, is already there) and every file with `O_CREAT | O_EXCL | O_NOFOLLOW`.
struct ModuleScaffold {
    let name: String
    /// The package folder to create.
    let output: String
    /// The kit package's folder.
    let kitFolder: String
    /// Whether to write a contracts package with a new route the module provides.
    var withRoute = false

    /// Why `name` cannot name a module, or nil.
    static func problem(withName name: String) -> HostText? {
        guard ModuleDescriptor.isIdentifier(name), name.count <= 64 else {
            return HostText(
                "new.name.invalid", "'%@' is not a module name: use letters, digits and '_', starting with a letter (at most 64)",
                [.plain(Escaped(name).description)])
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            return HostText(
                "new.name.lowercase", "'%@' is not a module name: start it with an upper-case letter (e.g. '%@')",
                [.plain(name), .plain(name.prefix(1).uppercased() + name.dropFirst())])
        }
        let taken = ["ModuleKit", "Contracts", "ModuleKitNetworking", "ModuleKitTesting", "CModuleABI", "CSQLite", "Foundation"]
        guard !taken.contains(name) else {
            return HostText("new.name.taken", "'%@' is the name of a library every module links; choose another", [.plain(name)])
        }
        return nil
    }

    /// The kit this `modhost` was built from (``KitLocation``).
    static var builtKitFolder: String { KitLocation.builtKitFolder }

    /// Why `folder` is not a kit package this host can build modules against, or nil.
    static func problem(withKit folder: String) -> HostText? {
        let header = folder + "/Sources/CModuleABI/include/modhost_abi.h"
        guard FileManager.default.fileExists(atPath: folder + "/Package.swift"),
            let text = try? String(contentsOfFile: header, encoding: .utf8)
        else {
            return HostText(
                "new.kit.missing",
                "no ModuleKit package at '%@' (the kit sources this modhost was built from); pass --kit PATH to the kit package of this host's checkout",
                [.plain(EscapedPath(folder).description)])
        }
        let version = text.split(separator: "\n").first { $0.hasPrefix("#define MODHOST_SDK_VERSION ") }
            .map { $0.dropFirst("#define MODHOST_SDK_VERSION ".count).filter { $0 != "\"" && $0 != " " } }
        // A module built against an earlier minor of this host's SDK major loads here too.
        guard let found = version.flatMap({ SDKVersion($0) }), let held = SDKVersion(ModuleKitABI.sdkVersion),
            SDKVersion.fit(built: found, held: held) == .fits
        else {
            return HostText(
                "new.kit.version",
                "the kit at '%@' is SDK %@, this modhost was built with %@ (a module runs in hosts of its SDK major at its minor or later); pass --kit PATH to the kit package of this host's checkout",
                [.plain(EscapedPath(folder).description), .plain(version ?? "?"), .plain(ModuleKitABI.sdkVersion)])
        }
        return nil
    }

    /// Writes the package: its folder made with `mkdirat` in the folder above, held open, and
    /// every folder and file in it made relative to that descriptor (`O_EXCL | O_NOFOLLOW`), so
    /// that nothing swapped in meanwhile (a symlink to another user's folder) is followed. A
    /// folder above that others can write is refused unless it is sticky: there another user
    /// could rename what was made and put their own in its place.
    ///
    /// - Throws: ``ScaffoldError`` naming the path that could not be written.
    func write() throws(ScaffoldError) {
        let template = ModuleTemplate(
            name: name, kitFolder: kitFolder, sdkVersion: ModuleKitABI.sdkVersion, withRoute: withRoute,
            hostExecutable: RunningExecutable.path)
        let package = try makePackageFolder()
        defer { close(package) }
        for file in template.files {
            var folder = dup(package)
            guard folder >= 0 else { throw ScaffoldError.cannot(.create, output) }
            defer { close(folder) }
            var components = file.path.split(separator: "/").map(String.init)
            let name = components.removeLast()
            var made = output
            for component in components {
                made += "/" + component
                folder = try Self.enter(component, in: folder, shownAs: made)
            }
            try Self.create(name, in: folder, shownAs: made + "/" + name, text: file.text)
        }
    }

    /// The package's folder, new, made where `output` says and opened.
    private func makePackageFolder() throws(ScaffoldError) -> Int32 {
        let trimmed = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
        let parent = FilePaths.folder(of: trimmed)
        let name = String(trimmed.split(separator: "/").last ?? Substring(trimmed))
        let above = Glibc.open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard above >= 0 else { throw ScaffoldError.cannot(.create, output) }
        defer { close(above) }
        var status = stat()
        guard fstat(above, &status) == 0 else { throw ScaffoldError.cannot(.create, output) }
        // The trust rule of every folder the host reads from: another user's folder is theirs
        // to change, sticky or not; one others may write is safe only when sticky (others
        // cannot rename what this run makes there).
        do throws(TrustError) {
            try TrustedPath.checkOwnerAndMode(of: parent, status, isFolder: true)
        } catch {
            if case .foreignOwner = error {
                throw ScaffoldError(
                    HostText(
                        "new.foreign.parent", "cannot create '%@': it %@; choose a folder only you can write with --output DIR",
                        [.plain(EscapedPath(output).description), .text(HostText.refusal(error, of: output))]))
            }
            throw ScaffoldError(
                HostText(
                    "new.unsafe.parent",
                    "cannot create '%@': '%@' can be changed by others than you (owner uid %@, mode %@) and is not sticky, so another user could put something else in its place while it is written; choose a folder only you can write with --output DIR",
                    [
                        .plain(EscapedPath(output).description), .plain(EscapedPath(parent).description), .plain("\(status.st_uid)"),
                        .plain("0" + String(status.st_mode & 0o7777, radix: 8)),
                    ]))
        }
        guard mkdirat(above, name, 0o755) == 0 else {
            guard errno != EEXIST else {
                throw ScaffoldError(
                    HostText(
                        "new.exists", "cannot create '%@': it already exists; choose a new folder with --output DIR",
                        [.plain(EscapedPath(output).description)]))
            }
            throw ScaffoldError.cannot(.create, output)
        }
        return try Self.openFolder(name, in: above, shownAs: output)
    }

    /// Makes folder `name` in `folder` (or takes the one this run made) and opens it.
    private static func enter(_ name: String, in folder: Int32, shownAs path: String) throws(ScaffoldError) -> Int32 {
        if mkdirat(folder, name, 0o755) != 0 && errno != EEXIST { throw ScaffoldError.cannot(.create, path) }
        let opened = try openFolder(name, in: folder, shownAs: path)
        close(folder)
        return opened
    }

    /// Opens folder `name` in `folder`, never through a symlink, and only one this user owns.
    private static func openFolder(_ name: String, in folder: Int32, shownAs path: String) throws(ScaffoldError) -> Int32 {
        let opened = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else { throw ScaffoldError.cannot(.create, path) }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_uid == geteuid() else {
            close(opened)
            errno = EPERM
            throw ScaffoldError.cannot(.create, path)
        }
        return opened
    }

    /// Creates file `name` in `folder`, new (never through a symlink), holding `text`.
    private static func create(_ name: String, in folder: Int32, shownAs path: String, text: String) throws(ScaffoldError) {
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ScaffoldError.cannot(.create, path) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ScaffoldError.cannot(.write, path) }
            written += count
        }
    }
}

struct ScaffoldError: Error {
    let text: HostText

    init(_ text: HostText) { self.text = text }

    enum Action { case create, write }

    /// What could not be done to `path`, with the system's reason (`errno`, read here).
    static func cannot(_ action: Action, _ path: String) -> ScaffoldError {
        let reason = String(cString: strerror(errno))
        let arguments: [HostText.Argument] = [.plain(EscapedPath(path).description), .plain(reason)]
        switch action {
        case .create: return ScaffoldError(HostText("new.cannot.create", "cannot create '%@': %@", arguments))
        case .write: return ScaffoldError(HostText("new.cannot.write", "cannot write '%@': %@", arguments))
        }
    }
}
