import FoundationEssentials
import Glibc
@_spi(Host) import ModuleKit

extension JSONValue {
    /// How a person calls this kind of value in an error message.
    var kindName: String { kind.description }

    /// What kind of value this is, as a message's argument ("found a number").
    var kind: HostText {
        switch self {
        case .null: HostText("json.null", "null")
        case .bool: HostText("json.bool", "a boolean")
        case .number: HostText("json.number", "a number")
        case .string: HostText("json.string", "a string")
        case .array: HostText("json.array", "an array")
        case .object: HostText("json.object", "an object")
        @unknown default: HostText("json.other", "a value of another kind")
        }
    }
}

extension JSONValue {
    /// The value a message says was found: a short literal for text, a number or a boolean
    /// (`"5"`, `true`), else its kind ("an array").
    var found: HostText {
        switch self {
        case .string(let text):
            let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return .plain("\"\(Escaped.escapingControlCharacters(cut))\"")
        case .number, .bool: return .plain(serialized)
        default: return kind
        }
    }
}

extension JSONValue {
    /// This value as JSON text (object keys sorted): how a module's `config` object is handed
    /// to the module. Written here rather than through `JSONEncoder`, which a start would
    /// otherwise load for one small object.
    var serialized: String {
        var text = ""
        write(to: &text)
        return text
    }

    /// ``serialized`` as UTF-8 bytes, copied as a buffer (`Data(text.utf8)` would ask at run
    /// time whether the view is `ContiguousBytes`: a scan of every loaded conformance).
    var serializedBytes: [UInt8] {
        var text = serialized
        return text.withUTF8 { Array($0) }
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            // The parser accepts only finite numbers; whole ones keep their integer spelling.
            if value.rounded() == value, let integer = Int64(exactly: value) {
                text += String(integer)
            } else {
                text += value.description
            }
        case .string(let value): Self.write(string: value, to: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.write(string: key, to: &text)
                text += ":"
                fields[key]?.write(to: &text)
            }
            text += "}"
        @unknown default: text += "null"
        }
    }

    private static func write(string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
