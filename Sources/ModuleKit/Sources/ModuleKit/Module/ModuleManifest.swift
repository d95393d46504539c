/// What a module declares about itself, read from its type after the handshake.
public struct ModuleManifest: Sendable, Hashable {
    public let name: String
    public let version: String
    public let provides: [RouteKey]
    public let requires: [RouteKey]
    public let uses: [RouteKey]
    /// Where the module's strings are, relative to its library; `nil` when it has none.
    public let stringsFolder: String?

    public init(
        name: String, version: String, provides: [RouteKey] = [], requires: [RouteKey] = [], uses: [RouteKey] = [],
        stringsFolder: String? = nil
    ) {
        self.name = name
        self.version = version
        self.provides = provides
        self.requires = requires
        self.uses = uses
        self.stringsFolder = stringsFolder
    }

    /// Every route the module may resolve: what it provides itself, requires or uses (each
    /// once, in that order). An array: a `Set<RouteKey>` would be the only one a start makes,
    /// and its type costs a scan of every loaded conformance.
    public var declaredRoutes: [RouteKey] {
        var routes: [RouteKey] = []
        for route in provides + requires + uses where !routes.contains(route) { routes.append(route) }
        return routes
    }
}

extension Module {
    /// The module's declarations as one value.
    public static var manifest: ModuleManifest {
        ModuleManifest(name: name, version: version, provides: provides, requires: requires, uses: uses, stringsFolder: stringsFolder)
    }
}
