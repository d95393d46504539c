import HostModel
@_spi(Host) import ModuleKit

/// Whether a module library, by its descriptor, can run with the kit this process loaded —
/// decided from the file, before any of its code runs.
///
/// ModuleKit and Contracts are built with library evolution, so a module keeps working with
/// every later release of the SDK major it was built against, as long as one compiler built
/// both: Swift keeps binary compatibility on Linux only between builds of the same compiler.
package enum SDKCompatibility {
    /// The SDK and compiler this process holds, from the loaded `libModuleKit.so`.
    package struct Host: Sendable {
        var sdk: String
        var compiler: String
        /// Where the kit sources this modhost was built from are, for the advice to rebuild.
        var kitFolder: @Sendable () -> String

        /// This process's kit, read once.
        static let loaded = Host(
            sdk: ModuleKitABI.sdkVersion, compiler: ModuleKitABI.compiler, kitFolder: { KitLocation.builtKitFolder })
        static let parsedSDK = SDKVersion(ModuleKitABI.sdkVersion)
    }

    /// Why the module described by `descriptor` cannot run here, or `nil` when it can.
    /// `rebuild` says how to rebuild it ("; in its package: 'swift build --product Notes'"); it
    /// is asked only for a refusal (it looks at folders).
    static func problem(with descriptor: ModuleDescriptor, host: Host = .loaded, rebuild: () -> HostText) -> HostText? {
        func advice() -> HostText {
            let kit = HostText(
                "load.kit.folder",
                "; this host's kit is '%@' (the 'let kit' line of the module's Package.swift names the kit it builds against)",
                [.plain("\(EscapedPath(host.kitFolder()))")])
            return HostText("", "%@%@", [.text(kit), .text(rebuild())])
        }
        guard !descriptor.isBeforeVersioning, let builtText = descriptor.sdkVersion, let built = SDKVersion(builtText),
            let held = host.sdk == ModuleKitABI.sdkVersion ? Host.parsedSDK : SDKVersion(host.sdk)
        else {
            return HostText(
                "load.sdk.before",
                "was built against ModuleKit %@, before SDK 1.0.0 gave the kit a stable binary interface; this host has SDK %@: rebuild the module against this host's kit%@",
                [
                    .text(
                        descriptor.sdkVersion.map { HostText("load.sdk.label", "SDK %@", [.plain($0)]) }
                            ?? HostText("load.sdk.none", "without an SDK version")), .plain(host.sdk), .text(advice()),
                ])
        }
        switch SDKVersion.fit(built: built, held: held) {
        case .otherMajor where built.major > held.major:
            return HostText(
                "load.sdk.major.newer",
                "was built against SDK %@; this host has SDK %@: a module runs only in a host of the SDK major it was built against (%@.x): update modhost, or rebuild the module against this host's kit%@",
                [.plain(built.description), .plain(held.description), .plain("\(built.major)"), .text(advice())])
        case .otherMajor:
            return HostText(
                "load.sdk.major.older",
                "was built against SDK %@; this host has SDK %@: a module runs only in a host of the SDK major it was built against (%@.x): rebuild the module against this host's kit%@",
                [.plain(built.description), .plain(held.description), .plain("\(built.major)"), .text(advice())])
        case .newerMinor:
            return HostText(
                "load.sdk.newer",
                "was built against SDK %@; this host has SDK %@, which lacks what %@ added: update modhost to a release of SDK %@ or later",
                [.plain(built.description), .plain(held.description), .plain(built.minorRelease), .plain(built.minorRelease)])
        case .fits:
            break
        }
        if let compiler = descriptor.compiler, compiler != host.compiler {
            return HostText(
                "load.compiler",
                "was built by '%@', this host's kit by '%@': Swift keeps modules binary compatible on Linux only between builds of one compiler; rebuild the module with '%@'%@",
                [.plain(compiler), .plain(host.compiler), .plain(host.compiler), .text(advice())])
        }
        return nil
    }
}
