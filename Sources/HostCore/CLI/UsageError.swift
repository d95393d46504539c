import ModuleKit

/// A bad use of the command line; `modhost` prints it and exits 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message in English (with `LC_ALL=C`, and when the host's strings cannot be read).
    public let message: String
    /// The message's key in the host's strings and its arguments, for the person's language.
    let key: String?
    let arguments: [String]

    public init(_ message: String) {
        self.message = message
        key = nil
        arguments = []
    }

    init(key: String, _ arguments: [String] = [], english: String) {
        message = english
        self.key = key
        self.arguments = arguments
    }

    public var description: String { message }

    /// Two usage errors are the same when they say the same thing.
    public static func == (left: UsageError, right: UsageError) -> Bool { left.message == right.message }

    /// The message in `strings`' language, when it has this message's key.
    func message(in strings: ModuleStrings?) -> String {
        guard let key, let strings, strings[StringKey(key)] != key else { return message }
        return strings.format(StringKey(key), arguments: arguments)
    }
}
