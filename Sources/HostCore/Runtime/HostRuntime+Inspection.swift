import Foundation
@_spi(Host) import ModuleKit

// Inspection: a module's library found, checked and described from its file, without opening
// it. What passes is the open file that loading then opens.
extension HostRuntime {
    /// The largest module library the host reads.
    static let maximumLibrarySize = 512 << 20

    /// A library checked and described: what planning knows of an enabled module.
    struct Inspected: Sendable {
        let path: String
        /// The open file that was checked, hashed and described: the one that is loaded.
        let file: TrustedFile
        let descriptor: ModuleDescriptor
        let sha256: String?

        var identity: FileIdentity { file.identity }
    }

    /// Finds, checks and describes an enabled module's library without running any of it:
    /// trust (owner, modes, file type), the optional sha256 pin, then the descriptor (ABI, SDK
    /// version and compiler, name).
    ///
    /// Typed throws rather than a `Result`: a `Result<_, LoadError>` made at start costs a
    /// scan of every loaded conformance, to learn that `LoadError` is an `Error`.
    func inspect(_ entry: ModuleEntry, hashing: Bool) throws(LoadError) -> Inspected {
        try Self.inspectLibrary(name: entry.name, path: try locate(entry), pinned: entry.sha256, hashing: hashing)
    }

    /// Checks and describes the library at `path` for module `name` (see ``inspect(_:hashing:)``).
    static func inspectLibrary(name: String, path: String, pinned: String? = nil, hashing: Bool = false) throws(LoadError) -> Inspected {
        func refuse(_ kind: LoadError.Kind, _ cause: String) -> LoadError {
            LoadError(kind: kind, module: name, path: path, cause: cause)
        }
        func refuse(_ kind: LoadError.Kind, _ text: HostText) -> LoadError {
            LoadError(kind: kind, module: name, path: path, text: text)
        }
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: Self.maximumLibrarySize)
        } catch {
            throw error == .missing ? refuse(.missingFile, missingAdvice(name, path: path)) : refuse(.untrusted, error.text(for: path))
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
            descriptor = try DescriptorReader.read(fileDescriptor: file.descriptor)
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
        if let problem = HandshakeRules.abiProblem(descriptor.abiVersion, rebuild: rebuildAdvice(name, path: path)) {
            throw refuse(.abiMismatch, problem)
        }
        if let problem = HandshakeRules.nameProblem(descriptor.name, expected: name) {
            throw refuse(.nameMismatch, problem)
        }
        return Inspected(path: path, file: file, descriptor: descriptor, sha256: digest)
    }

    /// The library's path: `library` from modules.json, else `lib<Name>.so` in the search paths.
    private func locate(_ entry: ModuleEntry) throws(LoadError) -> String {
        if let library = entry.library {
            // The file's folder however `--config` was written: a relative path is taken from
            // the current folder first ("modules.json" → "/srv/app").
            let folder = FilePaths.folder(of: FilePaths.absolute(configuration.path, relativeTo: FilePaths.currentFolder))
            return FilePaths.absolute(library, relativeTo: folder)
        }
        let file = "lib\(entry.name).so"
        let candidates = configuration.searchPaths.map { FilePaths.absolute(file, relativeTo: $0) }
        var status = stat()
        if let found = candidates.first(where: { lstat($0, &status) == 0 }) {
            return found
        }
        let searched = configuration.searchPaths.map { "'\(Escaped($0))'" }.joined(separator: ", ")
        throw
            LoadError(
                kind: .missingFile, module: entry.name, path: file,
                text: HostText(
                    "load.not.found", "was not found in the search paths (%@)%@",
                    [.plain(searched), .text(Self.notFoundAdvice(entry.name, in: configuration.searchPaths))]))
    }

    /// The contracts library `lib<name>.so` beside a module's library, where the loader looks
    /// first (SwiftPM links modules with the run path `$ORIGIN`), checked like a module library.
    static func contractsLibrary(beside library: String, named name: String) -> ContractsCheck.Beside {
        let path = FilePaths.folder(of: library) + "/lib\(name).so"
        let file: TrustedFile
        do {
            file = try TrustedFile(path: path, maximumSize: maximumLibrarySize)
        } catch {
            return error == .missing
                ? .nothing : .refused(HostText("", "'%@' %@", [.plain(Escaped(path).description), .text(error.text(for: path))]))
        }
        do {
            guard let found = try DescriptorReader.readContractsVersion(fileDescriptor: file.descriptor) else {
                return .unrecorded(path: path)
            }
            guard found.name == name else {
                return .refused(
                    HostText(
                        "contracts.other.name", "'%@' records the version of contracts '%@', not '%@'",
                        [.plain(Escaped(path).description), .plain(found.name), .plain(name)]))
            }
            // Library evolution holds between binaries of one compiler: the kit's.
            if let compiler = found.compiler, compiler != ModuleKitABI.compiler {
                return .refused(
                    HostText(
                        "contracts.compiler", "'%@' was built by '%@', this host's kit by '%@'; rebuild it with '%@'",
                        [.plain(Escaped(path).description), .plain(compiler), .plain(ModuleKitABI.compiler), .plain(ModuleKitABI.compiler)])
                )
            }
            return .version(found, path: path)
        } catch {
            switch error {
            case .notELF(let what): return .refused(HostText("", "'%@' %@", [.plain(Escaped(path).description), .plain(what)]))
            case .missing: return .unrecorded(path: path)
            case .malformed(let what):
                return .refused(
                    HostText(
                        "contracts.malformed", "'%@' has a malformed contracts section: it %@",
                        [.plain(Escaped(path).description), .plain(what)]))
            }
        }
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

    /// What to do about a module library no search path holds, and only what is true: the
    /// module of that name in a search path when the name looks mistyped; how to build it when
    /// this checkout has such a module; else to give its path.
    static func notFoundAdvice(_ name: String, in searchPaths: [String]) -> HostText {
        let present = searchPaths.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { file -> String? in
                file.hasPrefix("lib") && file.hasSuffix(".so") && file.count > 6 ? String(file.dropFirst(3).dropLast(3)) : nil
            }
        }
        if let near = nearest(to: name, among: present.filter { $0 != name }) {
            return HostText(
                "load.near", "; did you mean '%@' (lib%@.so is there)? Fix 'name' in modules.json", [.plain(near), .plain(near)])
        }
        let checkout = URL(fileURLWithPath: KitLocation.builtKitFolder).deletingLastPathComponent().deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Plugins/\(name)/Package.swift").path) {
            return HostText(
                "load.build.checkout", "; build it (in this checkout: 'swift build --product %@') or set 'library' in modules.json",
                [.plain(name)])
        }
        return HostText("load.set.library", "; set 'library' in modules.json to the path of its lib%@.so", [.plain(name)])
    }

    /// `library 'PATH' CAUSE`, how a problem with a module's library is said.
    static func libraryProblem(_ path: String, _ cause: HostText) -> HostText {
        HostText("reason.library", "library '%@' %@", [.plain(Escaped(path).description), .text(cause)])
    }
}
