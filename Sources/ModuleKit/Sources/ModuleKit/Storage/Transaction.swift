import CSQLite

/// Statements run inside one `Database` transaction.
public struct Transaction {
    let handle: OpaquePointer
    let path: String

    /// Runs a statement that returns no rows.
    ///
    /// - Throws: ``StorageError`` with SQLite's message.
    public mutating func execute(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) {
        _ = try query(sql, bindings)
    }

    /// Runs a statement and returns its rows.
    ///
    /// - Throws: ``StorageError`` with SQLite's message.
    public mutating func query(_ sql: String, _ bindings: [SQLValue] = []) throws(StorageError) -> [Row] {
        var rows: [Row] = []
        try forEachRow(sql, bindings) { rows.append($0) }
        return rows
    }

    /// Runs a statement and hands each row to `body` as it is read, without keeping them:
    /// for results too large to hold at once.
    ///
    /// - Throws: ``StorageError`` with SQLite's message, or what `body` throws.
    public mutating func forEachRow(
        _ sql: String, _ bindings: [SQLValue] = [], _ body: (Row) throws(StorageError) -> Void
    ) throws(StorageError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw error(sqlite3_errcode(handle))
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let integer): status = sqlite3_bind_int64(statement, index, integer)
            case .real(let real): status = sqlite3_bind_double(statement, index, real)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
            }
            guard status == SQLITE_OK else { throw error(status) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(status) }
            try body(Self.row(statement))
        }
    }

    /// The rowid of the last row this connection inserted.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func row(_ statement: OpaquePointer) -> Row {
        var columns: [String: SQLValue] = [:]
        for column in 0..<sqlite3_column_count(statement) {
            let name = String(cString: sqlite3_column_name(statement, column))
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: columns[name] = .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT: columns[name] = .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                let count = Int(sqlite3_column_bytes(statement, column))
                let bytes = sqlite3_column_text(statement, column).map { UnsafeBufferPointer(start: $0, count: count) }
                columns[name] = .text(bytes.map { String(decoding: $0, as: UTF8.self) } ?? "")
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, column))
                let bytes = sqlite3_column_blob(statement, column).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) }
                columns[name] = .blob(bytes ?? [])
            default: columns[name] = .null
            }
        }
        return Row(columns: columns)
    }

    private func error(_ status: Int32) -> StorageError {
        let message = String(cString: sqlite3_errmsg(handle))
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StorageError(.busy, "database '\(path)' is busy (another modhost process is writing); try again: \(message)")
        case SQLITE_CONSTRAINT:
            return StorageError(.constraint, "database '\(path)': \(message)")
        default:
            return StorageError(.sqlite, "database '\(path)': \(message)")
        }
    }
}
