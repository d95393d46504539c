/// What the host gives a module: who it is, where it runs, how to log and how to resolve.
public struct ModuleContext: Sendable {
    /// The module's name.
    public let moduleName: String
    /// The environment from `modules.json`.
    public let environment: HostEnvironment
    /// A logger labelled with the module's name.
    public let logger: Logger
    /// The module's view of the locator: its own services and the routes it declared.
    public let resolver: ModuleResolver

    public init(moduleName: String, environment: HostEnvironment, logger: Logger, resolver: ModuleResolver) {
        self.moduleName = moduleName
        self.environment = environment
        self.logger = logger
        self.resolver = resolver
    }
}
