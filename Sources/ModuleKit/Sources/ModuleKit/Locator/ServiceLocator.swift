import Synchronization

/// The one registry of routes and services in the process, shared by the host and all modules.
///
/// Modules never touch it directly: each gets a ``ModuleResolver`` (its view) and, while it
/// registers, a ``ModuleRegistry``. Routes are visible to the modules that declare them;
/// services are private to the module that registered them. Keys are
/// `ObjectIdentifier(T.self)` behind typed calls, never strings.
///
/// The host fills the locator at start-up and then seals it: from then on it is read-only and
/// every resolver answers from its own immutable table, without a lock.
public final class ServiceLocator: Sendable {
    /// The process-wide locator the host runs modules with.
    public static let shared = ServiceLocator()

    struct State {
        var routes: [ObjectIdentifier: AnyEntry] = [:]
        var services: [String: [ObjectIdentifier: AnyEntry]] = [:]
        var unavailableReasons: [ObjectIdentifier: String] = [:]
        var resolvers: [String: ModuleResolver] = [:]
        var isSealed = false
        /// Whether the one ``HostAccess`` of this locator was handed out.
        var hostAccessClaimed = false
        /// Entries withdrawn from a failed module, kept: a resolve on another thread may still
        /// read a value it found before the withdrawal.
        var retired: [AnyEntry] = []
    }

    let state = Mutex(State())

    /// Creates an empty locator; the host uses ``shared``, tests make their own.
    public init() {}

    /// Whether start-up is over and the locator is read-only.
    public var isSealed: Bool { state.withLock { $0.isSealed } }

    /// The right to make resolvers: handed out once per locator, to the first caller, which is
    /// the host (it claims it before any module library is opened). A module's code, even with
    /// `@_spi(Host) import ModuleKit`, gets `nil`, so it cannot make itself a resolver that
    /// reaches routes it never declared.
    @_spi(Host)
    public func claimHostAccess() -> HostAccess? {
        state.withLock { state in
            guard !state.hostAccessClaimed else { return nil }
            state.hostAccessClaimed = true
            return HostAccess(locator: self)
        }
    }

    /// A new locator and its host access, for a host of its own (a test harness, a benchmark).
    @_spi(Host)
    public static func withHostAccess() -> (locator: ServiceLocator, access: HostAccess) {
        let locator = ServiceLocator()
        locator.state.withLock { $0.hostAccessClaimed = true }
        return (locator, HostAccess(locator: locator))
    }

    /// The resolver of the module described by `manifest`, made on first request.
    @_spi(Host)
    public func resolver(for manifest: ModuleManifest, access: HostAccess) -> ModuleResolver {
        guard access.locator === self else { return unreachable(manifest.name) }
        return makeResolver(name: manifest.name) {
            ModuleResolver(
                moduleName: manifest.name,
                reachableRoutes: Set(manifest.declaredRoutes.map(\.id)),
                providedRoutes: Set(manifest.provides.map(\.id)),
                locator: self
            )
        }
    }

    /// The host's own resolver: it reaches every route.
    @_spi(Host)
    public func hostResolver(name: String = "modhost", access: HostAccess) -> ModuleResolver {
        guard access.locator === self else { return unreachable(name) }
        return makeResolver(name: name) {
            ModuleResolver(moduleName: name, reachableRoutes: nil, providedRoutes: nil, locator: self)
        }
    }

    /// What an access of another locator gets (module code can make itself one, of a locator
    /// of its own): a fresh resolver that reaches no route, never one this locator keeps.
    private func unreachable(_ name: String) -> ModuleResolver {
        ModuleResolver(moduleName: name, reachableRoutes: [], providedRoutes: [], locator: self)
    }

    private func makeResolver(name: String, _ make: () -> ModuleResolver) -> ModuleResolver {
        state.withLock { state in
            if let existing = state.resolvers[name] { return existing }
            let resolver = make()
            state.resolvers[name] = resolver
            if state.isSealed { resolver.seal(with: Self.table(for: resolver, in: state)) }
            return resolver
        }
    }

    /// Records why `route` is unavailable, for modules that resolve it anyway.
    @_spi(Host)
    public func markUnavailable(_ route: RouteKey, reason: String) {
        state.withLock { $0.unavailableReasons[route.id] = reason }
    }

    /// Removes everything `module` registered (it failed) and marks the routes it provided
    /// unavailable with `reason`.
    @_spi(Host)
    public func withdraw(module: String, provided: [RouteKey], reason: String) {
        state.withLock { state in
            if let services = state.services.removeValue(forKey: module) {
                state.retired.append(contentsOf: services.values)
            }
            for route in provided {
                guard let entry = state.routes[route.id], entry.owner == module else { continue }
                state.retired.append(entry)
                state.routes[route.id] = nil
            }
            for route in provided where state.routes[route.id] == nil {
                state.unavailableReasons[route.id] = reason
            }
        }
    }

    /// Ends start-up: no more registrations; every resolver gets its read-only table.
    @_spi(Host)
    public func seal() {
        state.withLock { state in
            guard !state.isSealed else { return }
            state.isSealed = true
            for resolver in state.resolvers.values {
                resolver.seal(with: Self.table(for: resolver, in: state))
            }
        }
    }

    /// Everything `resolver` can reach: its services and its declared routes that exist.
    private static func table(for resolver: ModuleResolver, in state: State) -> [ObjectIdentifier: AnyEntry] {
        var entries = state.services[resolver.moduleName] ?? [:]
        for (id, entry) in state.routes where resolver.canReach(id) {
            entries[id] = entry
        }
        return entries
    }
}

/// The host's right to make resolvers of a ``ServiceLocator`` (see
/// ``ServiceLocator/claimHostAccess()``); only the locator makes one.
@_spi(Host) public final class HostAccess: Sendable {
    /// Held, not just named: a freed locator's address reused by a new one must not match.
    let locator: ServiceLocator

    fileprivate init(locator: ServiceLocator) {
        self.locator = locator
    }
}
