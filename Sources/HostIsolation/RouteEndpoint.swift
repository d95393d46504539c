import FoundationEssentials
import Glibc
import HostProcesses

/// Where the calls of a route go: the link to the process that serves it, and — for a module's
/// own process, which may be started again — a way to get a new one once that process is gone.
/// A proxy keeps its endpoint for ever; the link behind it changes.
package final class RouteEndpoint: @unchecked Sendable {
    // `current` and `restarting` are touched only with `lock` held (recursive: a restart's
    // start may call back into this process, which may call this route again).
    private let lock = RecursiveLock()
    private var current: RouteLink
    private var restarting = false
    /// Makes a new link when the current one failed (given its failure), or says why not.
    private let restart: (@Sendable (RouteCallError) -> Result<RouteLink, RouteCallError>)?
    /// Runs before each call, given the link it goes over (outside this endpoint's lock): what
    /// the process behind it must know first (the person's language).
    private let beforeCall: (@Sendable (RouteLink) -> Void)?

    package init(
        _ link: RouteLink, restart: (@Sendable (RouteCallError) -> Result<RouteLink, RouteCallError>)? = nil,
        beforeCall: (@Sendable (RouteLink) -> Void)? = nil
    ) {
        current = link
        self.restart = restart
        self.beforeCall = beforeCall
    }

    /// The link calls go over now (a failed one until the next call restarts it).
    package var link: RouteLink { lock.withLock { current } }

    /// Sends the calls from now on over `link` (a process started with new code); calls under
    /// way finish over the link they began on. `alongside` runs under this endpoint's lock, so
    /// that no restart after a failed call (which holds it throughout) sees one without the other.
    ///
    /// - Returns: The link calls went over until now.
    package func replace(with link: RouteLink, alongside: () -> Void = {}) -> RouteLink {
        lock.withLock {
            alongside()
            defer { current = link }
            return current
        }
    }

    /// The link to call on: the current one while it works; a new one when it failed and a
    /// restart gives one.
    ///
    /// - Throws: ``RouteCallError/unavailable(peer:reason:)`` when the restart is refused or fails.
    func usableLink() throws(RouteCallError) -> RouteLink {
        let link = try currentOrRestarted()
        beforeCall?(link)
        return link
    }

    private func currentOrRestarted() throws(RouteCallError) -> RouteLink {
        lock.lock()
        defer { lock.unlock() }
        guard let failure = current.failed, let restart else { return current }
        guard !restarting else { throw .unavailable(peer: current.peer, reason: "it is starting again") }
        restarting = true
        defer { restarting = false }
        switch restart(failure) {
        case .success(let link):
            current = link
            return link
        case .failure(let error):
            throw error
        }
    }
}
