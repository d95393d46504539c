import Foundation
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
    static func problem(withName name: String) -> String? {
        guard ModuleDescriptor.isIdentifier(name), name.count <= 64 else {
            return "'\(Escaped(name))' is not a module name: use letters, digits and '_', starting with a letter (at most 64)"
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else {
            return
                "'\(name)' is not a module name: start it with an upper-case letter (e.g. '\(name.prefix(1).uppercased() + name.dropFirst())')"
        }
        let taken = ["ModuleKit", "Contracts", "ModuleKitNetworking", "ModuleKitTesting", "CModuleABI", "CSQLite", "Foundation"]
        guard !taken.contains(name) else { return "'\(name)' is the name of a library every module links; choose another" }
        return nil
    }

    /// The kit this `modhost` was built from: `Sources/ModuleKit` of its source checkout.
    static var builtKitFolder: String {
        // This file is Sources/HostCore/Scaffold/ModuleScaffold.swift in the checkout.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ModuleKit").path
    }

    /// Why `folder` is not a kit package this host can build modules against, or nil.
    static func problem(withKit folder: String) -> String? {
        let header = folder + "/Sources/CModuleABI/include/modhost_abi.h"
        guard FileManager.default.fileExists(atPath: folder + "/Package.swift"),
            let text = try? String(contentsOfFile: header, encoding: .utf8)
        else {
            return
                "no ModuleKit package at '\(Escaped(folder))' (the kit sources this modhost was built from); pass --kit PATH to the kit package of this host's checkout"
        }
        let version = text.split(separator: "\n").first { $0.hasPrefix("#define MODHOST_SDK_VERSION ") }
            .map { $0.dropFirst("#define MODHOST_SDK_VERSION ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
        guard version == ModuleKitABI.sdkVersion else {
            return
                "the kit at '\(Escaped(folder))' is SDK \(version ?? "unknown"), this modhost was built with \(ModuleKitABI.sdkVersion); pass --kit PATH to the kit package of this host's checkout"
        }
        return nil
    }

    /// Writes the package.
    ///
    /// - Throws: ``ScaffoldError`` naming the path that could not be written.
    func write() throws(ScaffoldError) {
        let template = ModuleTemplate(name: name, kitFolder: kitFolder, sdkVersion: ModuleKitABI.sdkVersion, withRoute: withRoute)
        guard mkdir(output, 0o755) == 0 else {
            let cause = errno == EEXIST ? "already exists; choose a new folder with --output DIR" : String(cString: strerror(errno))
            throw ScaffoldError(message: "cannot create '\(Escaped(output))': \(cause)")
        }
        for file in template.files {
            let path = output + "/" + file.path
            var folder = ""
            for component in file.path.split(separator: "/").dropLast() {
                folder += "/" + component
                if mkdir(output + folder, 0o755) != 0 && errno != EEXIST {
                    throw ScaffoldError(message: "cannot create '\(Escaped(output + folder))': \(String(cString: strerror(errno)))")
                }
            }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw ScaffoldError(message: "cannot create '\(Escaped(path))': \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let bytes = Array(file.text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    throw ScaffoldError(message: "cannot write '\(Escaped(path))': \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }
    }
}

struct ScaffoldError: Error {
    let message: String
}
