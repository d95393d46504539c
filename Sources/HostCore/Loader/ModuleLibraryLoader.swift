import CModuleABI
import Foundation
@_spi(Host) import ModuleKit
import Synchronization

/// A module library that passed the handshake.
public struct LoadedModule: Sendable {
    public let path: String
    public let version: String
    /// A fresh module object; each load makes a new one.
    public let instance: ModuleInstance

    public var manifest: ModuleManifest { instance.manifest }
}

/// Loads module libraries with `dlopen` and checks the entry point's plain-C answer (ABI
/// version, kit fingerprint, name) before any Swift object crosses.
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
        let entry: EntryPoint
        let version: String
    }

    private let libraries = Mutex<[String: OpenLibrary]>([:])

    init() {}

    /// Loads `name` from `path` and instantiates it. The file was checked and its descriptor
    /// read before (see `HostRuntime.inspect`); the entry point's answer and the module's own
    /// declarations must agree with that descriptor.
    ///
    /// - Throws: ``LoadError`` naming the module, the path and the cause.
    func load(name: String, path: String, descriptor: ModuleDescriptor) throws(LoadError) -> LoadedModule {
        func refuse(_ kind: LoadError.Kind, _ cause: String) -> LoadError {
            LoadError(kind: kind, module: name, path: path, cause: cause)
        }
        let library = try libraries.withLock { (libraries: inout [String: OpenLibrary]) throws(LoadError) -> OpenLibrary in
            if let open = libraries[name] {
                guard open.path == path else {
                    throw refuse(
                        .duplicatePath,
                        "is a second copy of module '\(name)', already loaded from '\(open.path)'; load a module from one path only")
                }
                return open
            }
            let open = try open(name: name, path: path, refuse: refuse)
            libraries[name] = open
            return open
        }
        guard let object = library.entry(ModuleKitABI.instantiateRequest) else {
            throw refuse(.noInstance, "returned no module object from its entry point")
        }
        guard let instance = Unmanaged<AnyObject>.fromOpaque(object).takeRetainedValue() as? ModuleInstance else {
            throw refuse(.noInstance, "returned an object that is not a ModuleKit module; declare the entry point with ModuleExport.entry")
        }
        guard instance.manifest.name == name else {
            throw refuse(.nameMismatch, "describes itself as '\(name)' but its module type is named '\(instance.manifest.name)'")
        }
        let declared = instance.manifest
        let code = [declared.version] + [declared.provides, declared.requires, declared.uses].map { $0.map(\.name).joined(separator: ",") }
        let file = [descriptor.version] + [descriptor.provides, descriptor.requires, descriptor.uses].map { $0.joined(separator: ",") }
        if let field = zip(["version", "provides", "requires", "uses"], zip(code, file)).first(where: { $0.1.0 != $0.1.1 }) {
            throw refuse(
                .descriptorMismatch,
                "declares \(field.0) '\(field.1.0)' in its code but '\(field.1.1)' in its descriptor; declare them only in module.manifest and rebuild it"
            )
        }
        return LoadedModule(path: path, version: library.version, instance: instance)
    }

    private func open(name: String, path: String, refuse: (LoadError.Kind, String) -> LoadError) throws(LoadError) -> OpenLibrary {
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw refuse(.notLoadable, "is not a loadable library: \(Self.lastDynamicLinkerError())")
        }
        guard let symbol = dlsym(handle, ModuleKitABI.entrySymbol) else {
            throw refuse(
                .missingEntry,
                "has no entry symbol '\(ModuleKitABI.entrySymbol)'; a module declares it with ModuleExport.entry")
        }
        let entry = unsafeBitCast(symbol, to: EntryPoint.self)
        guard let raw = entry(ModuleKitABI.describeRequest) else {
            throw refuse(.noDescriptor, "returned no descriptor from '\(ModuleKitABI.entrySymbol)'")
        }
        let descriptor = raw.assumingMemoryBound(to: modhost_descriptor.self)
        // abi_version is the first field in every layout: safe to read before anything else.
        let abi = descriptor.pointee.abi_version
        guard abi == ModuleKitABI.version else {
            throw refuse(
                .abiMismatch,
                "speaks module ABI version \(abi), the host speaks \(ModuleKitABI.version); rebuild it against this host's kit"
            )
        }
        guard let fingerprintPointer = descriptor.pointee.kit_fingerprint else {
            throw refuse(.malformedDescriptor, "has a descriptor without a ModuleKit fingerprint (NULL)")
        }
        guard let namePointer = descriptor.pointee.name else {
            throw refuse(.malformedDescriptor, "has a descriptor without a name (NULL)")
        }
        guard let versionPointer = descriptor.pointee.version else {
            throw refuse(.malformedDescriptor, "has a descriptor without a version (NULL)")
        }
        let fingerprint = Self.boundedString(fingerprintPointer)
        guard fingerprint == ModuleKitABI.hostFingerprint else {
            throw refuse(
                .fingerprintMismatch,
                "was built against ModuleKit \(fingerprint), the host has \(ModuleKitABI.hostFingerprint); rebuild it against this host's kit"
            )
        }
        let libraryName = Self.boundedString(namePointer)
        guard libraryName == name else {
            throw refuse(
                .nameMismatch,
                "holds module '\(libraryName)', not '\(name)'; fix 'name' or 'library' in modules.json")
        }
        return OpenLibrary(path: path, entry: entry, version: Self.boundedString(versionPointer))
    }

    /// A C string from a module, read up to 256 bytes so a missing terminator cannot run away.
    private static func boundedString(_ pointer: UnsafePointer<CChar>) -> String {
        let length = strnlen(pointer, 256)
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func lastDynamicLinkerError() -> String {
        guard let message = dlerror() else { return "unknown dlopen error" }
        return String(cString: message)
    }
}
