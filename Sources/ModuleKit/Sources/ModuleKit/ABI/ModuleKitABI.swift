import CModuleABI

/// The module boundary, as this build of the kit sees it.
///
/// Before the host lets any Swift object cross, it compares a module's descriptor (its ABI
/// version, the SDK version it was compiled against and the compiler that built it) with
/// these, read from the `libModuleKit.so` the process loaded. ``compiler`` and
/// ``compiledSDKVersion`` are generated on every build by `KitBuildPlugin`.
public enum ModuleKitABI {
    /// The C-ABI version of the handshake (`MODHOST_ABI_VERSION` in `modhost_abi.h`).
    public static let version: UInt32 = MODHOST_ABI_VERSION

    /// The SDK's semantic version (`MODHOST_SDK_VERSION`) of the loaded kit.
    public static let sdkVersion = MODHOST_SDK_VERSION

    /// The C symbol every module library exports.
    public static let entrySymbol = MODHOST_ENTRY_SYMBOL

    /// Request code: answer with a pointer to a `modhost_descriptor`.
    public static let describeRequest = UInt32(MODHOST_REQUEST_DESCRIBE)

    /// Request code: answer with a retained ``ModuleInstance``.
    public static let instantiateRequest = UInt32(MODHOST_REQUEST_INSTANTIATE)
}
