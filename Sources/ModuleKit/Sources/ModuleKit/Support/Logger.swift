/// Writes leveled messages for one module to standard error.
///
/// Messages below the host's `--log-level` cost one comparison: the text is an autoclosure
/// that is never evaluated.
public struct Logger: Sendable {
    /// Who is speaking: a module's name, or `modhost`.
    public let label: String
    /// The least important level that is written.
    public let minimumLevel: LogLevel
    private let sink: @Sendable (String) -> Void

    /// Creates a logger writing to standard error.
    public init(label: String, minimumLevel: LogLevel) {
        self.init(label: label, minimumLevel: minimumLevel, sink: StandardError.write)
    }

    /// Creates a logger writing each finished line (with its newline) to `sink`.
    public init(label: String, minimumLevel: LogLevel, sink: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// A logger for `label` that writes where this one does.
    public func relabeled(_ label: String) -> Logger {
        Logger(label: label, minimumLevel: minimumLevel, sink: sink)
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        let speaker = label == "modhost" ? "" : "\(label): "
        // Redacted at every level: a trace of a request must not carry its key. One line whatever
        // it quotes: a line break or a terminal escape in it is written as an escape.
        sink("modhost: \(level.rawValue): \(speaker)\(Escaped.escapingControlCharacters(Redaction.redact(message())))\n")
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }
}
