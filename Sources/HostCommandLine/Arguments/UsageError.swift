import HostModel
import ModuleKit

/// A bad use of the command line; `modhost` prints it and exits 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message in English (with `LC_ALL=C`, and when the host's strings cannot be read).
    public let message: String
    /// The message's key in the host's strings and its arguments, for the person's language.
    let key: String?
    let arguments: [String]
    /// The message as a host text, when it was made as one.
    let text: HostText?

    public init(_ message: String) {
        self.message = message
        key = nil
        arguments = []
        text = nil
    }

    init(_ text: HostText) {
        message = text.description
        key = nil
        arguments = []
        self.text = text
    }

    init(key: String, _ arguments: [String] = [], english: String) {
        message = english
        self.key = key
        self.arguments = arguments
        text = nil
    }

    public var description: String { message }

    /// Two usage errors are the same when they say the same thing.
    public static func == (left: UsageError, right: UsageError) -> Bool { left.message == right.message }

    /// The message in `strings`' language, when it has this message's key.
    func message(in strings: ModuleStrings?) -> String {
        if let text { return text.render(strings) }
        guard let key, let strings, strings[StringKey(key)] != key else { return message }
        return strings.format(StringKey(key), arguments: arguments)
    }
}
