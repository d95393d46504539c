/// A bad use of the command line; `modhost` prints it and exits 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
