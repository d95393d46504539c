import CModuleABI

#if canImport(Glibc)
    import Glibc
#endif

/// Answers the host's calls to a module library's entry point.
///
/// Every module library declares its entry point in one line:
///
/// ```swift
/// @_cdecl("modhost_module_entry")
/// public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(GeoModule.self, request) }
/// ```
///
/// Everything this type does before instantiation is compiled into the module itself
/// (`@_alwaysEmitIntoClient`), and touches only the standard library and C: a module built
/// against another build of the kit can still describe itself, and the host can refuse it.
///
/// `ModuleExport` is a typealias of this type, generated with each build of the kit (see
/// `KitFingerprint.swift`): its `Build` names the kit's fingerprint, so that whenever the kit
/// changes, the file that declares a module's entry point no longer matches what it was
/// compiled against and an incremental build recompiles it with the new fingerprint.
public enum ModuleExportForBuild<Build> {
    /// Handles one request from the host.
    ///
    /// - Parameters:
    ///   - module: The module type this library exports.
    ///   - request: `MODHOST_REQUEST_DESCRIBE` or `MODHOST_REQUEST_INSTANTIATE`.
    /// - Returns: A `modhost_descriptor` pointer, a retained ``ModuleInstance``, or `nil` for an
    ///   unknown request.
    @_alwaysEmitIntoClient
    public static func entry<M: Module>(_ module: M.Type, _ request: UInt32) -> UnsafeMutableRawPointer? {
        switch request {
        case UInt32(MODHOST_REQUEST_DESCRIBE):
            return UnsafeMutableRawPointer(describe(module))
        case UInt32(MODHOST_REQUEST_INSTANTIATE):
            return Unmanaged.passRetained(ModuleInstance(M())).toOpaque()
        default:
            return nil
        }
    }

    /// Builds the plain-C descriptor. It is allocated once per call and never freed: the host
    /// asks once per load, and libraries are never unloaded.
    @_alwaysEmitIntoClient
    static func describe<M: Module>(_ module: M.Type) -> UnsafeMutablePointer<modhost_descriptor> {
        let fingerprint = ModuleKitABI.compiledFingerprint.utf8Start
        let descriptor = UnsafeMutablePointer<modhost_descriptor>.allocate(capacity: 1)
        descriptor.initialize(
            to: modhost_descriptor(
                abi_version: MODHOST_ABI_VERSION,
                kit_fingerprint: UnsafeRawPointer(fingerprint).assumingMemoryBound(to: CChar.self),
                name: strdup(M.name),
                version: strdup(M.version)
            )
        )
        return descriptor
    }
}
