/// A value from outside (a file, a module, the command line) made safe to print in one line
/// of a message: control characters are escaped, so a value cannot forge another
/// `modhost: error:` line or send terminal escapes, and a long value is cut.
public struct Escaped: CustomStringConvertible, Sendable {
    /// Longest value printed whole; a longer one is cut and its length said.
    public static let maximumLength = 120

    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { Self.cut(value, at: Self.maximumLength) }

    /// `value` with its control characters escaped, cut after `limit` characters (its length
    /// said).
    static func cut(_ value: String, at limit: Int) -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in value.unicodeScalars {
            if count < limit { kept.append(scalar) }
            count += 1
        }
        var text = escapingControlCharacters(String(kept))
        if count > limit { text += "… (\(count) characters)" }
        return text
    }

    /// `text` with every control character written as an escape (`\n`, `\t`, `\u{1B}`).
    public static func escapingControlCharacters(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What the terminal would obey (``TerminalText/isControl(_:)``), and in one line also a
    /// line break, a tab and any other invisible format character but the emoji joiner.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\n" || scalar == "\t" || TerminalText.isControl(scalar)
            || scalar.properties.generalCategory == .format && scalar.value != 0x200D
    }
}

/// A path for a message, made safe as ``Escaped`` makes a value, but whole up to `PATH_MAX`
/// (4 096): cut at 120 characters, a file in a deep folder lost its own name, the part a
/// person needs to act on what the message says.
@_spi(Host) public struct EscapedPath: CustomStringConvertible, Sendable {
    /// Longest path printed whole: any the system opens.
    public static let maximumLength = 4_096

    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { Escaped.cut(value, at: Self.maximumLength) }
}
