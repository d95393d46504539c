import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit

/// A module library checked and described from its file, without opening it: what planning
/// knows of an enabled module.
package struct InspectedLibrary: Sendable {
    package let path: String
    /// The open file that was checked, hashed and described: the one that is loaded.
    package let file: TrustedFile
    package let descriptor: ModuleDescriptor
    package let sha256: String?

    package var identity: FileIdentity { file.identity }
}

/// The checks a module library passes before it is opened: the file, its pin and its
/// descriptor. The runtime finds the file (see `HostRuntime.inspect`); what passes is the open
/// file that ``ModuleLibraryLoader`` then opens.
package enum LibraryInspection {
    /// Checks and describes the library at `path` for module `name` without running any of it:
    /// trust (owner, modes, file type), the optional sha256 pin, then the descriptor (SDK
    /// version and compiler, ABI, name).
    package static func inspect(name: String, path: String, pinned: String? = nil, hashing: Bool = false) throws(LoadError)
        -> InspectedLibrary
    {
        func refuse(_ kind: LoadError.Kind, _ cause: String) -> LoadError {
            LoadError(kind: kind, module: name, path: path, cause: cause)
        }
        func refuse(_ kind: LoadError.Kind, _ text: HostText) -> LoadError {
            LoadError(kind: kind, module: name, path: path, text: text)
        }
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: LibraryFile.maximumSize)
        } catch {
            throw error == .missing
                ? refuse(.missingFile, missingAdvice(name, path: path)) : refuse(.untrusted, HostText.refusal(error, of: path))
        }
        var digest: String?
        if hashing || pinned != nil {
            switch SHA256File.hex(of: file) {
            case .failure(let problem): throw refuse(.untrusted, problem.message)
            case .success(let hex): digest = hex
            }
            if let pinned, pinned.lowercased() != digest {
                throw refuse(
                    .checksumMismatch,
                    HostText(
                        "load.checksum",
                        "has sha256 %@, but modules.json pins %@; if the new library is the one you want, update 'sha256' (see 'modhost modules --json')",
                        [.plain(digest ?? "?"), .plain("\(Escaped(pinned))")]))
            }
        }
        let descriptor: ModuleDescriptor
        do {
            descriptor = try DescriptorReader.read(fileDescriptor: file.descriptor, size: file.identity.size)
        } catch {
            switch error {
            case .notELF(let what):
                throw refuse(
                    .notLoadable,
                    HostText("load.not.elf", "%@; a module library is a shared object built with 'swift build'", [.plain(what)]))
            case .missing:
                throw refuse(
                    .noDescriptor,
                    HostText(
                        "load.no.descriptor",
                        "has no module descriptor (section '%@'); add a module.manifest to its target, apply the kit's ModuleDescriptorPlugin, and rebuild it%@",
                        [.plain(DescriptorReader.sectionName), .text(rebuildAdvice(name, path: path))]))
            case .malformed(let what):
                throw refuse(.malformedDescriptor, HostText("load.malformed", "has a malformed module descriptor: it %@", [.plain(what)]))
            }
        }
        // The SDK first: a library from before SDK 1.0.0 also speaks an older ABI, and the
        // release it was built against says more about what to do.
        if let problem = SDKCompatibility.problem(with: descriptor, rebuild: { rebuildAdvice(name, path: path) }) {
            throw refuse(.sdkMismatch, problem)
        }
        if let problem = HandshakeRules.abiProblem(descriptor.abiVersion, rebuild: { rebuildAdvice(name, path: path) }) {
            throw refuse(.abiMismatch, problem)
        }
        if let problem = HandshakeRules.nameProblem(descriptor.name, expected: name) {
            throw refuse(.nameMismatch, problem)
        }
        return InspectedLibrary(path: path, file: file, descriptor: descriptor, sha256: digest)
    }

    /// How to rebuild module `name`: in this checkout when its library lies in the build folder
    /// `modhost` runs from, else in the module's own package.
    static func rebuildAdvice(_ name: String, path: String) -> HostText {
        isInHostBuildFolder(path)
            ? HostText("load.rebuild.checkout", "; in this checkout: 'swift build --product %@'", [.plain(name)])
            : HostText("load.rebuild.package", "; in its package: 'swift build --product %@'", [.plain(name)])
    }

    private static func missingAdvice(_ name: String, path: String) -> HostText {
        isInHostBuildFolder(path)
            ? HostText(
                "load.missing.checkout",
                "does not exist; build it (in this checkout: 'swift build --product %@') or set 'library' in modules.json",
                [.plain(name)])
            : HostText(
                "load.missing.package", "does not exist; build it (in its package: 'swift build --product %@') or correct the path",
                [.plain(name)])
    }

    private static func isInHostBuildFolder(_ path: String) -> Bool {
        // Through symlinks: .build/debug is one to .build/<triple>/debug.
        FilePaths.resolved(FilePaths.folder(of: path)) == FilePaths.resolved(ProcessLocation.executableFolder)
    }
}
