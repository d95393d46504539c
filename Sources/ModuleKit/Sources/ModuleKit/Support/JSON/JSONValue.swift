/// A JSON value as written, so a file can be checked key by key and type by type.
@_spi(Host)
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}
