import Foundation

/// A JSON value as written, so `modules.json` can be checked key by key and type by type.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

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
        }
    }
}

extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, let integer = Int64(exactly: value) {
                try container.encode(integer)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
