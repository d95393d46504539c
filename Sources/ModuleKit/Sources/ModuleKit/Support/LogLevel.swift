/// How much a log message matters, from `trace` (most detail) to `critical`; the raw value
/// is the name written on the command line (`--log-level warn`), as in swift-log.
public enum LogLevel: String, CaseIterable, Comparable, Sendable {
    case trace, debug, info, warn, error, critical

    /// Position in `allCases`: later is more important.
    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
