import CModuleABI

/// The version and fingerprint of the plugin boundary, as this build of the kit sees them.
///
/// The host compares a module's ``ModuleKitABI/compiledFingerprint`` (compiled into the
/// module) with ``ModuleKitABI/hostFingerprint`` (compiled into the loaded `libModuleKit.so`)
/// before it lets any Swift object cross. The fingerprint values are generated from the kit's
/// sources by `KitFingerprintPlugin` on every build.
public enum ModuleKitABI {
    /// The C-ABI version of the handshake (`MODHOST_ABI_VERSION` in `modhost_abi.h`).
    public static let version: UInt32 = MODHOST_ABI_VERSION

    /// The SDK's semantic version (`MODHOST_SDK_VERSION`), recorded in each module's descriptor.
    public static let sdkVersion = MODHOST_SDK_VERSION

    /// The C symbol every module library exports.
    public static let entrySymbol = MODHOST_ENTRY_SYMBOL

    /// Request code: answer with a pointer to a `modhost_descriptor`.
    public static let describeRequest = UInt32(MODHOST_REQUEST_DESCRIBE)

    /// Request code: answer with a retained ``ModuleInstance``.
    public static let instantiateRequest = UInt32(MODHOST_REQUEST_INSTANTIATE)
}
