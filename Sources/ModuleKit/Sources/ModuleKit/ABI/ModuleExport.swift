/// Answers the host's calls to a module library's entry point.
///
/// Every module library declares its entry point in one line:
///
/// ```swift
/// @_cdecl("modhost_module_entry")
/// public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(GeoModule.self, request) }
/// ```
///
/// What the entry point answers before instantiation is compiled into the module itself
/// (`@_alwaysEmitIntoClient`) and touches only the standard library: the descriptor says
/// which SDK the module was compiled against, not which one the process loaded. The request
/// codes and the descriptor's layout are those of `modhost_abi.h`, written out here so that a
/// module needs no C module to compile its entry point (`ModuleKitTests` holds them equal).
public enum ModuleExport {
    /// Handles one request from the host.
    ///
    /// - Parameters:
    ///   - module: The module type this library exports.
    ///   - request: `MODHOST_REQUEST_DESCRIBE` (1) or `MODHOST_REQUEST_INSTANTIATE` (2).
    /// - Returns: A `modhost_descriptor` pointer, a retained ``ModuleInstance``, or `nil` for an
    ///   unknown request.
    @_alwaysEmitIntoClient
    public static func entry<M: Module>(_ module: M.Type, _ request: UInt32) -> UnsafeMutableRawPointer? {
        switch request {
        case 1:
            return describe(module)
        case 2:
            return Unmanaged.passRetained(ModuleInstance(M())).toOpaque()
        default:
            return nil
        }
    }

    /// Builds the plain-C descriptor: `{ uint32_t abi_version; const char *sdk_version, *name,
    /// *version; }`, laid out as C does on the 64-bit Linux targets the host runs on. It is
    /// allocated once per call and never freed: the host asks once per load, and libraries are
    /// never unloaded.
    @_alwaysEmitIntoClient
    static func describe<M: Module>(_ module: M.Type) -> UnsafeMutableRawPointer {
        let pointerSize = MemoryLayout<UnsafeRawPointer>.size
        let descriptor = UnsafeMutableRawPointer.allocate(byteCount: 4 * pointerSize, alignment: pointerSize)
        descriptor.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * pointerSize)
        // MODHOST_ABI_VERSION, then the pointers, each at its natural alignment.
        descriptor.storeBytes(of: UInt32(2), as: UInt32.self)
        let sdk = UnsafeRawPointer(ModuleKitABI.compiledSDKVersion.utf8Start)
        descriptor.storeBytes(of: sdk, toByteOffset: pointerSize, as: UnsafeRawPointer.self)
        descriptor.storeBytes(of: cString(M.name), toByteOffset: 2 * pointerSize, as: UnsafeRawPointer.self)
        descriptor.storeBytes(of: cString(M.version), toByteOffset: 3 * pointerSize, as: UnsafeRawPointer.self)
        return descriptor
    }

    /// A NUL-terminated copy of `text`, never freed (see ``describe(_:)``).
    @_alwaysEmitIntoClient
    static func cString(_ text: String) -> UnsafeRawPointer {
        let bytes = Array(text.utf8) + [0]
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return UnsafeRawPointer(copy)
    }
}
