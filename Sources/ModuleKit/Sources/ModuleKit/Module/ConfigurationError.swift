import Dispatch
import FoundationEssentials

/// A module's `config` object is not one its configuration type takes: every problem found,
/// each naming its key, the value found and what is expected, in an operator's words
/// (`config.perPage is 500; expected a whole number from 3 to 200`).
///
/// The kit collects every problem of one `config` at once: each optional key of the wrong
/// type, each key the type never reads, and the problems a module's `init(from:)` throws
/// after it has read its keys. A module that validates its values collects them too:
///
/// ```swift
/// var problems: [String] = []
/// if let perPage, !(3...200).contains(perPage) {
///     problems.append("config.perPage is \(perPage); expected a whole number from 3 to 200")
/// }
/// if !problems.isEmpty { throw ConfigurationError(problems: problems) }
/// ```
public struct ConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The problems on one line, separated by `; `.
    public let message: String
    /// Each problem, in the order found.
    ///
    /// - Since: SDK 1.2.0.
    public let problems: [String]

    /// One problem.
    public init(message: String) {
        self.message = message
        problems = [message]
    }

    /// Every problem found; `check` lists each on its own line.
    ///
    /// - Since: SDK 1.2.0.
    public init(problems: [String]) {
        self.problems = problems
        message = problems.joined(separator: "; ")
    }

    public var description: String { message }

    /// The problem of `error`, met while decoding `root`: the key's path, the value found there
    /// (hidden under a secret's name) and what was expected.
    init(decoding error: DecodingError, in root: JSONValue) {
        let path = Self.path
        func found(_ codingPath: [any CodingKey]) -> String {
            guard let value = root.value(at: codingPath) else { return "missing" }
            if let last = codingPath.last?.stringValue, Self.namesASecret(last) { return "set (its value is not shown)" }
            return value.shownValue
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(message: "\(path(context.codingPath + [key])) is missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            self.init(message: "\(path(context.codingPath)) is \(found(context.codingPath)); expected \(Self.plainWords(for: type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                self.init(message: "config: \(context.debugDescription)")
            } else {
                self.init(message: "\(path(context.codingPath)) is \(found(context.codingPath)); \(context.debugDescription)")
            }
        @unknown default:
            self.init(message: "config: \(error)")
        }
    }

    /// `config.limits.count`, `config.mirrors.[0].url`: how a problem names a key.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty
            ? "config" : "config." + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    /// Whether a key's value is a secret, whose value a message never shows.
    static func namesASecret(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return Redaction.secretNames.contains(lowered) || ["key", "token", "password", "secret"].contains { lowered.hasSuffix($0) }
    }

    /// What a value of `type` is, as an operator writes it in JSON, not as Swift names it:
    /// "a whole number from 0 to 255" for `UInt8`, "text" for `String`.
    static func plainWords(for type: Any.Type) -> String {
        func whole<T: FixedWidthInteger>(_: T.Type) -> String { "a whole number from \(T.min) to \(T.max)" }
        switch type {
        case is Int.Type, is Int64.Type: return "a whole number"
        case is Int8.Type: return whole(Int8.self)
        case is Int16.Type: return whole(Int16.self)
        case is Int32.Type: return whole(Int32.self)
        case is UInt.Type, is UInt64.Type: return "a whole number from 0"
        case is UInt8.Type: return whole(UInt8.self)
        case is UInt16.Type: return whole(UInt16.self)
        case is UInt32.Type: return whole(UInt32.self)
        case is Double.Type, is Float.Type, is Decimal.Type: return "a number"
        case is String.Type: return "text (in quotes)"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array<") || name.hasPrefix("[") { return "a list ([…])" }
            if name.hasPrefix("Dictionary<") { return "an object ({…})" }
            return name
        }
    }
}

extension JSONValue {
    /// The value under `codingPath` (object keys and array indexes), if there is one.
    func value(at codingPath: [any CodingKey]) -> JSONValue? {
        var current = self
        for key in codingPath {
            switch current {
            case .object(let fields):
                guard let next = fields[key.stringValue] else { return nil }
                current = next
            case .array(let items):
                guard let index = key.intValue, items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value as a message shows it: a short literal (`500`, `"twenty"`), or its kind for a
    /// list or an object.
    var shownValue: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            if value.rounded() == value, let whole = Int64(exactly: value) { return String(whole) }
            return value.description
        case .string(let text):
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "\"\(Escaped.escapingControlCharacters(cut))\""
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}
