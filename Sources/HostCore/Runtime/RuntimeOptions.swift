import ModuleKit

/// One run's choices on top of `modules.json`.
public struct RuntimeOptions: Sendable {
    /// Load just these (plus what they require); `nil` for all enabled modules.
    public var only: [String]?
    /// Turned on for this run.
    public var enable: [String] = []
    /// Turned off for this run.
    public var disable: [String] = []
    public var logLevel: LogLevel = .warn

    public init(only: [String]? = nil, enable: [String] = [], disable: [String] = [], logLevel: LogLevel = .warn) {
        self.only = only
        self.enable = enable
        self.disable = disable
        self.logLevel = logLevel
    }
}
