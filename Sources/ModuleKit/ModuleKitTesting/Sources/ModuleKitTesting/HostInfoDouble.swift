import Contracts
import Testing

/// A `HostInfoRoute` that answers with fixed values.
public struct HostInfoDouble: HostInfoRoute {
    public var hostVersion: String
    public var environment: String
    public var modules: [ModuleStatus]
    public var dataFolder: String
    public var commands: [String]
    /// What ``check()`` answers: `nil` is a host that cannot check from the app.
    public var checkLines: [String]?

    public init(
        hostVersion: String = "0.0.0-test", environment: String = "test", modules: [ModuleStatus] = [],
        dataFolder: String = "/tmp/modhost-test",
        commands: [String] = [], checkLines: [String]? = nil
    ) {
        self.hostVersion = hostVersion
        self.environment = environment
        self.modules = modules
        self.dataFolder = dataFolder
        self.commands = commands
        self.checkLines = checkLines
    }

    public func check() -> [String]? { checkLines }
}

/// A `HostInfoRoute` whose every member fails the test: for modules that must not ask.
public struct UnimplementedHostInfo: HostInfoRoute {
    public init() {}
    public var hostVersion: String { unimplemented("HostInfoRoute.hostVersion", placeholder: "") }
    public var environment: String { unimplemented("HostInfoRoute.environment", placeholder: "") }
    public var modules: [ModuleStatus] { unimplemented("HostInfoRoute.modules", placeholder: []) }
    public var dataFolder: String { unimplemented("HostInfoRoute.dataFolder", placeholder: "") }
    public var commands: [String] { unimplemented("HostInfoRoute.commands", placeholder: []) }
    public func check() -> [String]? { unimplemented("HostInfoRoute.check", placeholder: nil as [String]?) }
}
