import Foundation

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
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// Writes a large array element by element through `write`, in the same format, without
    /// holding it all: `body` is called with a function that adds one element.
    public static func streamArray<Element: Encodable>(
        to write: @escaping (String) -> Void, chunk: Int = 1 << 16, _ body: ((Element) -> Void) throws -> Void
    ) rethrows {
        var output = "["
        var first = true
        try body { element in
            output += (first ? "" : ",") + string(element)
            first = false
            if output.utf8.count > chunk {
                write(output)
                output = ""
            }
        }
        write(output + "]\n")
    }
}
