import HostModel

/// Why a runtime cannot be made for these options: a module named by `--only`, `--enable` or
/// `--disable` that `modules.json` lacks, a module both enabled and disabled, or a locator
/// already claimed. The command line reports it as a usage error.
public struct RuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message, for the person's language.
    package let text: HostText

    init(_ text: HostText) { self.text = text }

    /// The message in English.
    public var description: String { text.description }

    public static func == (left: RuntimeError, right: RuntimeError) -> Bool { left.description == right.description }
}
