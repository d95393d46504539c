/// How much a log message matters, from `trace` (most detail) to `critical`.
public enum LogLevel: Int, CaseIterable, Comparable, Sendable {
    case trace, debug, info, warn, error, critical

    /// The level's name as written on the command line (`--log-level warn`).
    public var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .warn: "warn"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// The level named `name`, or `nil`.
    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
