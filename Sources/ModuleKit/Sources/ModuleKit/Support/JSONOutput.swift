import Dispatch
import FoundationEssentials

/// Every `--json` output, written one way: one JSON document on one line, object keys sorted,
/// `/` not escaped, no spaces. Scripts can rely on it whatever the command.
///
/// ```swift
/// context.ui.print(JSONOutput.string(user))
/// ```
public enum JSONOutput {
    /// `value` as JSON text.
    public static func string<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values (strings, numbers, arrays, structs of them) cannot fail; a value
        // that can (a non-finite Double) is written as null rather than crash the command.
        let text = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return escapingTerminalControls(text)
    }

    /// `json` with the control characters JSON allows raw in a string (DEL, C1, the
    /// bidirectional overrides: ``TerminalText/isControl(_:)``) written as `\uXXXX`, so the
    /// document reaches a terminal unchanged and means the same. Outside strings JSON has none.
    static func escapingTerminalControls(_ json: String) -> String {
        guard TerminalText.containsControl(json) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard TerminalText.isControl(scalar) else {
                result.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16)
            result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
        }
        return String(result)
    }

    /// The version of the one layout every `--json` output of the host and its modules shares:
    /// one object, keys sorted, the payload under a named key beside `schemaVersion`, every key
    /// always present (`null` when there is no value).
    public static let schemaVersion = 1

    /// `value` under `key` in that layout: `{"cities":[…],"schemaVersion":1}`.
    public static func document<Value: Encodable>(_ key: String, _ value: Value) -> String {
        let payload = "\(string(key)):\(string(value))"
        let version = "\"schemaVersion\":\(schemaVersion)"
        return "{" + (key < "schemaVersion" ? payload + "," + version : version + "," + payload) + "}"
    }

    /// Writes a large array under `key` in that layout, element by element through `write`,
    /// without holding it all: `body` is called with a function that adds one element.
    public static func streamDocument<Element: Encodable>(
        _ key: String, to write: @escaping (String) -> Void, chunk: Int = 1 << 16, _ body: ((Element) -> Void) throws -> Void
    ) rethrows {
        let version = "\"schemaVersion\":\(schemaVersion)"
        let before = key < "schemaVersion" ? "" : version + ","
        let after = key < "schemaVersion" ? "," + version : ""
        try streamArray(to: write, prefix: "{" + before + string(key) + ":", suffix: after + "}", chunk: chunk, body)
    }

    /// Writes a large array element by element through `write`, in the same format, without
    /// holding it all: `body` is called with a function that adds one element.
    public static func streamArray<Element: Encodable>(
        to write: @escaping (String) -> Void, prefix: String = "", suffix: String = "", chunk: Int = 1 << 16,
        _ body: ((Element) -> Void) throws -> Void
    ) rethrows {
        var output = prefix + "["
        var first = true
        try body { element in
            output += (first ? "" : ",") + string(element)
            first = false
            if output.utf8.count > chunk {
                write(output)
                output = ""
            }
        }
        write(output + "]" + suffix + "\n")
    }
}
