import Synchronization

/// A module's view of the ``ServiceLocator``: its own services and the routes it declared.
///
/// ```swift
/// let auth: any AuthRoute = try context.resolver.inject()
/// let maps = try context.resolver.optional((any MapsRoute).self)   // nil when unavailable
/// ```
///
/// Resolving a route the module did not declare throws ``LocatorError/Kind/undeclared``; a
/// declared route whose provider is disabled or failed throws
/// ``LocatorError/Kind/unavailable`` with the reason. Once the host has sealed the locator, a
/// resolve is one lookup in this resolver's own read-only table (`SealedTable`), with no lock.
public final class ModuleResolver: Sendable {
    /// The module this resolver belongs to.
    public let moduleName: String
    /// Routes it may resolve; `nil` for the host, which reaches every route.
    let reachableRoutes: Set<ObjectIdentifier>?
    /// Routes it may register; `nil` for the host.
    let providedRoutes: Set<ObjectIdentifier>?
    unowned let locator: ServiceLocator
    /// Written once, when the locator is sealed, before `isSealed` turns true; read-only after.
    /// A pointer rather than a `var`: a class `var` costs a dynamic exclusivity check per read.
    /// Exercised from many threads across the seal: `ServiceLocatorTests.resolvesFromManyThreads…`.
    nonisolated(unsafe) let sealedEntries: UnsafeMutablePointer<SealedTable>
    /// Publishes `sealedEntries`: a reader that sees `true` (acquiring) sees the whole table.
    let isSealed = Atomic<Bool>(false)

    init(moduleName: String, reachableRoutes: Set<ObjectIdentifier>?, providedRoutes: Set<ObjectIdentifier>?, locator: ServiceLocator) {
        self.moduleName = moduleName
        self.reachableRoutes = reachableRoutes
        self.providedRoutes = providedRoutes
        self.locator = locator
        sealedEntries = .allocate(capacity: 1)
        sealedEntries.initialize(to: SealedTable())
    }

    deinit {
        sealedEntries.pointee.deallocate()
        sealedEntries.deinitialize(count: 1)
        sealedEntries.deallocate()
    }

    func canReach(_ id: ObjectIdentifier) -> Bool {
        reachableRoutes?.contains(id) ?? true
    }

    /// Called once, under the locator's lock.
    func seal(with entries: [ObjectIdentifier: AnyEntry]) {
        guard !isSealed.load(ordering: .acquiring) else { return }
        sealedEntries.pointee = SealedTable(entries)
        isSealed.store(true, ordering: .releasing)
    }

    /// The shared value (singleton or lazy singleton) registered for `type`.
    ///
    /// - Throws: ``LocatorError`` when `type` is undeclared, unavailable or not registered,
    ///   or registered as a factory (``make(_:)`` makes those).
    @inlinable
    public func resolve<Value: Sendable>(_ type: Value.Type = Value.self) throws(LocatorError) -> Value {
        // Inlined, so the value is copied out at its own type; the lookup is one call into the
        // kit, which reads its sealed table directly. (Inlined whole, it reached the table's
        // fields through the resilient class's accessors, and retained the entry across them:
        // x2.2 of the typed box in `modhost-bench resolve`.)
        let storage = try sharedStorage(of: type)
        // The entry under Value's key always holds a Value (see AnyEntry).
        return storage.assumingMemoryBound(to: Value.self).pointee
    }

    /// Where the shared value (singleton or lazy singleton) registered for `type` lives.
    /// Every path ends in one read from storage the table keeps alive: a second source of
    /// values merging into the result would make the caller copy it (a retain and release per
    /// resolve of a class-bound route).
    @usableFromInline
    func sharedStorage(of type: any Any.Type) throws(LocatorError) -> UnsafeMutableRawPointer {
        if isSealed.load(ordering: .acquiring) {
            let table = sealedEntries.pointee
            if let singleton = table.singleton(ObjectIdentifier(type)) { return singleton }
            if let entry = table.entry(ObjectIdentifier(type)) { return try entry.sharedValue() }
        }
        return try locator.sharedStorage(of: type, for: self)
    }

    /// A new value from the factory registered for `type` (``Lifetime/factory(_:)``).
    ///
    /// - Throws: ``LocatorError`` when `type` is undeclared, unavailable or not registered,
    ///   or registered as a shared value (``resolve(_:)`` answers those).
    public func make<Value: Sendable>(_ type: Value.Type = Value.self) throws(LocatorError) -> Value {
        // Values are made outside the locator's lock: a factory may resolve other things.
        try unsafeDowncast(locator.entry(of: type, for: self), to: Entry<Value>.self).newValue()
    }

    /// The value registered for the inferred type (`let auth: any AuthRoute = try resolver.inject()`).
    ///
    /// - Throws: ``LocatorError``, as ``resolve(_:)``.
    @inlinable
    public func inject<Value: Sendable>() throws(LocatorError) -> Value {
        try resolve(Value.self)
    }

    /// The value registered for `type`, or `nil` when the route is unavailable: for routes a
    /// module *uses*, where its absence is a normal state (``ifAvailable(_:)`` reads better).
    ///
    /// - Throws: ``LocatorError`` when `type` is undeclared or a factory: bugs, not absences.
    @inlinable
    public func optional<Value: Sendable>(_ type: Value.Type = Value.self) throws(LocatorError) -> Value? {
        do {
            return try resolve(type)
        } catch  where error.kind == .unavailable || error.kind == .notRegistered {
            return nil
        }
    }

    /// The value registered for `type`, or `nil` when it is unavailable: the non-throwing form
    /// of ``optional(_:)`` for routes a module *uses*.
    ///
    /// Resolving a route the module did not declare, or a factory, is a bug in the module, not
    /// an absence: it stops a debug build, and in a release build it is reported on standard
    /// error (naming the module and the route) and answers `nil`, rather than being silently
    /// swallowed.
    public func ifAvailable<Value: Sendable>(_ type: Value.Type = Value.self) -> Value? {
        do {
            return try optional(type)
        } catch {
            assertionFailure("\(error)")
            let advice = error.kind == .undeclared ? "; declare the route in module.manifest" : ""
            StandardError.write("modhost: error: \(error)\(advice)\n")
            return nil
        }
    }
}
