/// What a module registers with while the host calls its `register(_:configuration:)`.
///
/// ```swift
/// try registry.route((any GeoRoute).self, .singleton(GeoRouter(resolver: registry.resolver)))
/// try registry.service((any GeoStorage).self, .lazySingleton { SQLiteGeoStorage() })
/// ```
public final class ModuleRegistry: Sendable {
    /// The module's context, for factories that log or resolve.
    public let context: ModuleContext
    private let locator: ServiceLocator

    @_spi(Host)
    public init(context: ModuleContext, locator: ServiceLocator) {
        self.context = context
        self.locator = locator
    }

    /// The module's resolver, for factories that need other values.
    public var resolver: ModuleResolver { context.resolver }

    /// Registers a route other modules may resolve; it must be declared in `provides`.
    ///
    /// - Throws: ``LocatorError`` when the route is undeclared, already provided, or the
    ///   locator is sealed.
    public func route<Value: Sendable>(_ type: Value.Type, _ lifetime: Lifetime<Value>) throws(LocatorError) {
        try locator.register(type, lifetime, as: .route, by: context.resolver)
    }

    /// Registers a service only this module resolves.
    ///
    /// - Throws: ``LocatorError`` when the service is registered twice, is one of the module's
    ///   declared routes, or the locator is sealed.
    public func service<Value: Sendable>(_ type: Value.Type, _ lifetime: Lifetime<Value>) throws(LocatorError) {
        try locator.register(type, lifetime, as: .service, by: context.resolver)
    }
}
