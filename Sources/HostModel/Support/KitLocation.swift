import FoundationEssentials
import Glibc

/// Where the kit sources this `modhost` was built from are: `Sources/ModuleKit` of its source
/// checkout. `modhost new` writes packages against it, and a refusal that asks for a rebuild
/// names it. It lives here, below every layer that needs it.
package enum KitLocation {
    package static var builtKitFolder: String {
        // This file is Sources/HostModel/Support/KitLocation.swift in the checkout.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("ModuleKit").path
    }
}
