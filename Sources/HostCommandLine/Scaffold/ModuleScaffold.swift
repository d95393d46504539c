import Foundation
import HostModel
import ModuleKit

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
                [.plain(Escaped(folder).description)])
        }
        let version = text.split(separator: "\n").first { $0.hasPrefix("#define MODHOST_SDK_VERSION ") }
            .map { $0.dropFirst("#define MODHOST_SDK_VERSION ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        // A module built against an earlier minor of this host's SDK major loads here too.
        guard let found = version.flatMap({ SDKVersion($0) }), let held = SDKVersion(ModuleKitABI.sdkVersion),
            SDKVersion.fit(built: found, held: held) == .fits
        else {
            return HostText(
                "new.kit.version",
                "the kit at '%@' is SDK %@, this modhost was built with %@ (a module runs in hosts of its SDK major at its minor or later); pass --kit PATH to the kit package of this host's checkout",
                [.plain(Escaped(folder).description), .plain(version ?? "?"), .plain(ModuleKitABI.sdkVersion)])
        }
        return nil
    }

    /// Writes the package.
    ///
    /// - Throws: ``ScaffoldError`` naming the path that could not be written.
    func write() throws(ScaffoldError) {
        let template = ModuleTemplate(
            name: name, kitFolder: kitFolder, sdkVersion: ModuleKitABI.sdkVersion, withRoute: withRoute,
            hostExecutable: RunningExecutable.path)
        guard mkdir(output, 0o755) == 0 else {
            guard errno != EEXIST else {
                throw ScaffoldError(
                    HostText(
                        "new.exists", "cannot create '%@': it already exists; choose a new folder with --output DIR",
                        [.plain(Escaped(output).description)]))
            }
            throw ScaffoldError.cannot(.create, output)
        }
        for file in template.files {
            let path = output + "/" + file.path
            var folder = ""
            for component in file.path.split(separator: "/").dropLast() {
                folder += "/" + component
                if mkdir(output + folder, 0o755) != 0 && errno != EEXIST {
                    throw ScaffoldError.cannot(.create, output + folder)
                }
            }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw ScaffoldError.cannot(.create, path)
            }
            defer { close(descriptor) }
            let bytes = Array(file.text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    throw ScaffoldError.cannot(.write, path)
                }
                written += count
            }
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
        let arguments: [HostText.Argument] = [.plain(Escaped(path).description), .plain(reason)]
        switch action {
        case .create: return ScaffoldError(HostText("new.cannot.create", "cannot create '%@': %@", arguments))
        case .write: return ScaffoldError(HostText("new.cannot.write", "cannot write '%@': %@", arguments))
        }
    }
}
