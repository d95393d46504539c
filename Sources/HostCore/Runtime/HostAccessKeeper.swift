@_spi(Host) import ModuleKit
import Synchronization

/// The host's ``HostAccess`` to each locator it runs modules on, claimed the first time a
/// runtime is made for that locator (before any module library is opened) and kept for the
/// process: later runtimes on the same locator reuse it, and no module can claim it.
enum HostAccessKeeper {
    private static let claimed = Mutex<[ObjectIdentifier: HostAccess]>([:])

    /// The access to `locator`, claimed now if the host has not yet; `nil` when someone else
    /// claimed it first (never in the host, which claims before loading modules).
    static func access(to locator: ServiceLocator) -> HostAccess? {
        claimed.withLock { claimed in
            if let access = claimed[ObjectIdentifier(locator)] { return access }
            let access = locator.claimHostAccess()
            claimed[ObjectIdentifier(locator)] = access
            return access
        }
    }
}
