/// A value bound to, or read from, a SQL statement.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// One result row, by column name.
public struct Row: Sendable {
    let columns: [String: SQLValue]

    public subscript(_ column: String) -> SQLValue { columns[column] ?? .null }

    /// The column as text, or `nil` when it is null or not text.
    public func string(_ column: String) -> String? {
        if case .text(let value) = self[column] { return value }
        return nil
    }

    /// The column as an integer, or `nil` when it is null or not an integer.
    public func integer(_ column: String) -> Int64? {
        if case .integer(let value) = self[column] { return value }
        return nil
    }
}
