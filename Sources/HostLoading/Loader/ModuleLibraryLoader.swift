import CModuleABI
import FoundationEssentials
import Glibc
import HostModel
@_spi(Host) import ModuleKit
import Synchronization

/// A module library that passed the handshake.
public struct LoadedModule: Sendable {
    public let path: String
    /// The folder of the file that was checked and loaded (every symlink resolved): where the
    /// module's strings and resources are found.
    public let folder: String
    public let version: String
    /// A fresh module object; each load makes a new one.
    public let instance: ModuleInstance

    public var manifest: ModuleManifest { instance.manifest }
}

/// Loads module libraries with `dlopen` and checks the entry point's plain-C answer (ABI
/// version, SDK version, name) against the descriptor read from the file before any Swift
/// object crosses.
///
/// Handles are kept for the life of the process, by module name: Swift images cannot be
/// unloaded, and the same module from a second path is refused.
public final class ModuleLibraryLoader: Sendable {
    /// The loader of the process: one per process, since libraries stay loaded.
    public static let shared = ModuleLibraryLoader()

    private typealias EntryPoint = @convention(c) (UInt32) -> UnsafeMutableRawPointer?

    private struct OpenLibrary: @unchecked Sendable {
        // dlopen handles and entry points are process-wide and thread-safe to call (exercised
        // by `ModuleLibraryLoaderTests.oneLibraryLoadedFromManyThreads`).
        let path: String
        let resolvedPath: String
        let entry: EntryPoint
        let version: String
    }

    /// Made with room for a run's modules: a table that grew between two `dlopen`s would make
    /// its storage type there, and each `dlopen` empties the runtime's conformance cache (see
    /// `HostRuntime.load`).
    private let libraries = Mutex([String: OpenLibrary](minimumCapacity: 64))

    init() {}

    /// Loads `name` from `file` and instantiates it. The file was checked and its descriptor
    /// read before (see `HostRuntime.inspect`), and it is that open file that is loaded (see
    /// ``TrustedLibrary``); the entry point's answer and the module's own declarations must
    /// agree with that descriptor. `preparation`, what the load reads of that file, may have
    /// been read ahead (on another thread); it is read here otherwise.
    ///
    /// - Throws: ``LoadError`` naming the module, the path and the cause.
    package func load(
        name: String, file: TrustedFile, descriptor: ModuleDescriptor, preparation: TrustedLibrary.Preparation? = nil
    ) throws(LoadError) -> LoadedModule {
        let path = file.path
        func refuse(_ kind: LoadError.Kind, _ text: HostText) -> LoadError {
            LoadError(kind: kind, module: name, path: path, text: text)
        }
        let library = try libraries.withLock { (libraries: inout [String: OpenLibrary]) throws(LoadError) -> OpenLibrary in
            if let open = libraries[name] {
                guard open.resolvedPath == file.resolvedPath else {
                    throw refuse(
                        .duplicatePath,
                        HostText(
                            "loader.second.copy",
                            "is a second copy of module '%@', already loaded from '%@'; load a module from one path only",
                            [.plain(name), .plain("\(EscapedPath(open.path))")]))
                }
                return open
            }
            let open = try open(name: name, file: file, descriptor: descriptor, preparation: preparation, refuse: refuse)
            libraries[name] = open
            return open
        }
        guard let object = library.entry(ModuleKitABI.instantiateRequest) else {
            throw refuse(.noInstance, HostText("loader.no.instance", "returned no module object from its entry point"))
        }
        guard let instance = Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue() as? ModuleInstance else {
            throw refuse(
                .noInstance,
                HostText(
                    "loader.not.module",
                    "returned an object that is not a ModuleKit module; declare the entry point with ModuleExport.entry"))
        }
        guard instance.manifest.name == name else {
            throw refuse(
                .nameMismatch,
                HostText(
                    "loader.name", "describes itself as '%@' but its module type is named '%@'",
                    [.plain(name), .plain(instance.manifest.name)]))
        }
        let declared = instance.manifest
        let code = [[declared.version]] + [declared.provides, declared.requires, declared.uses].map { $0.map(\.name) }
        let described = [[descriptor.version]] + [descriptor.provides, descriptor.requires, descriptor.uses]
        let fields = ["version", "provides", "requires", "uses"]
        // Compared as arrays and joined only to say what differs: this runs between two
        // `dlopen`s, where each new generic type costs a scan of every loaded conformance.
        if let index = fields.indices.first(where: { code[$0] != described[$0] }) {
            throw refuse(
                .descriptorMismatch,
                HostText(
                    "loader.declares",
                    "declares %@ '%@' in its code but '%@' in its descriptor; declare them only in module.manifest and rebuild it",
                    [.plain(fields[index]), .plain(code[index].joined(separator: ",")), .plain(described[index].joined(separator: ","))])
            )
        }
        return LoadedModule(
            path: path, folder: FilePaths.folder(of: file.resolvedPath), version: library.version, instance: instance)
    }

    private func open(
        name: String, file: TrustedFile, descriptor described: ModuleDescriptor, preparation: TrustedLibrary.Preparation?,
        refuse: (LoadError.Kind, HostText) -> LoadError
    ) throws(LoadError) -> OpenLibrary {
        let handle: UnsafeMutableRawPointer
        do {
            let prepared = preparation.flatMap { $0.file === file ? $0 : nil } ?? TrustedLibrary.prepare(file)
            handle = try TrustedLibrary.open(prepared, maximumSize: LibraryFile.maximumSize)
        } catch {
            switch error {
            case .dependency(let needed, let path, let problem):
                throw refuse(
                    .untrusted,
                    HostText(
                        "loader.dependency", "needs '%@', and '%@' beside it %@",
                        [.plain("\(Escaped(needed))"), .plain("\(EscapedPath(path))"), .text(HostText.refusal(problem, of: path))]))
            case .dynamicLinker(let message):
                if let missing = MissingSymbol(dynamicLinkerMessage: message) {
                    throw refuse(.missingSymbol, missing.reason(rebuild: LibraryInspection.rebuildAdvice(name, path: file.path)))
                }
                throw refuse(.notLoadable, HostText("loader.not.loadable", "is not a loadable library: %@", [.plain(message)]))
            case .malformed(let message), .linkFolder(let message):
                throw refuse(.notLoadable, HostText("loader.not.loadable", "is not a loadable library: %@", [.plain(message)]))
            case .relativeRunPath(let entry):
                throw refuse(
                    .notLoadable,
                    HostText(
                        "loader.relative.run.path",
                        "has run path '%@', relative to its own folder, which the host cannot honour while it loads the file it checked; link it with run path '$ORIGIN' and put the libraries it needs beside it",
                        [.plain("\(Escaped(entry))")]))
            @unknown default:
                throw refuse(.notLoadable, HostText("loader.not.loadable", "is not a loadable library: %@", [.plain("\(error)")]))
            }
        }
        // The same inode was loaded; written over in place since it was hashed (by its owner:
        // no one else may write it), its bytes are not the ones checked.
        var status = stat()
        guard fstat(file.descriptor, &status) == 0, FileIdentity(status) == file.identity else {
            throw refuse(.untrusted, HostText("loader.changed", "changed while it was being loaded; try again"))
        }
        ModuleGuard.registerCode(of: name, handle: handle, library: file.path, identity: file.identity)
        guard let symbol = dlsym(handle, ModuleKitABI.entrySymbol) else {
            throw refuse(
                .missingEntry,
                HostText(
                    "loader.no.entry", "has no entry symbol '%@'; a module declares it with ModuleExport.entry",
                    [.plain(ModuleKitABI.entrySymbol)]))
        }
        let entry = unsafeBitCast(symbol, to: EntryPoint.self)
        guard let raw = entry(ModuleKitABI.describeRequest) else {
            throw refuse(
                .noDescriptor, HostText("loader.no.descriptor", "returned no descriptor from '%@'", [.plain(ModuleKitABI.entrySymbol)]))
        }
        let descriptor = raw.assumingMemoryBound(to: modhost_descriptor.self)
        // abi_version is the first field in every layout: safe to read before anything else.
        let abi = descriptor.pointee.abi_version
        if let problem = HandshakeRules.abiProblem(abi, rebuild: { LibraryInspection.rebuildAdvice(name, path: file.path) }) {
            throw refuse(.abiMismatch, problem)
        }
        guard let sdkPointer = descriptor.pointee.sdk_version else {
            throw refuse(.malformedDescriptor, HostText("loader.null.sdk", "has a descriptor without an SDK version (NULL)"))
        }
        guard let namePointer = descriptor.pointee.name else {
            throw refuse(.malformedDescriptor, HostText("loader.null.name", "has a descriptor without a name (NULL)"))
        }
        guard let versionPointer = descriptor.pointee.version else {
            throw refuse(.malformedDescriptor, HostText("loader.null.version", "has a descriptor without a version (NULL)"))
        }
        // The file's descriptor passed the SDK checks; the code must say the same.
        let sdk = Self.boundedString(sdkPointer)
        guard sdk == described.sdkVersion else {
            throw refuse(
                .descriptorMismatch,
                HostText(
                    "loader.sdk", "answers SDK '%@' from its entry point but its descriptor records '%@'; rebuild it against one kit",
                    [.plain("\(Escaped(sdk))"), .plain(described.sdkVersion ?? "")]))
        }
        let libraryName = Self.boundedString(namePointer)
        if let problem = HandshakeRules.nameProblem(libraryName, expected: name) {
            throw refuse(.nameMismatch, problem)
        }
        return OpenLibrary(path: file.path, resolvedPath: file.resolvedPath, entry: entry, version: Self.boundedString(versionPointer))
    }

    /// A C string from a module, read up to 256 bytes so a missing terminator cannot run away.
    private static func boundedString(_ pointer: UnsafePointer<CChar>) -> String {
        let length = strnlen(pointer, 256)
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }
}
