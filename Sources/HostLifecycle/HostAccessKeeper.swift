@_spi(Host) import ModuleKit
import Synchronization

/// The host's ``HostAccess`` to each locator it runs modules on, claimed the first time a
/// runtime is made for that locator (before any module library is opened) and kept for the
/// process: later runtimes on the same locator reuse it, and no module can claim it.
package enum HostAccessKeeper {
    /// Each locator is kept with its access (or the `nil` it answered): a freed locator's
    /// address, reused by a new one, would otherwise find the old one's answer.
    /// A list, not a dictionary keyed by `ObjectIdentifier`: a process has one locator or a
    /// few, and a new `Hashable` key type costs the runtime a scan of every conformance record.
    private static let claimed = Mutex<[Claim]>([])

    private struct Claim: Sendable {
        let locator: ServiceLocator
        let access: HostAccess?
    }

    /// The access to `locator`, claimed now if the host has not yet; `nil` when someone else
    /// claimed it first (never in the host, which claims before loading modules).
    static func access(to locator: ServiceLocator) -> HostAccess? {
        claimed.withLock { claimed in
            for claim in claimed where claim.locator === locator { return claim.access }
            let access = locator.claimHostAccess()
            claimed.append(Claim(locator: locator, access: access))
            return access
        }
    }
}
