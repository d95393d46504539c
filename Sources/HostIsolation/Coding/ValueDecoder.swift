/// Reads a value that ``ValueEncoder`` wrote. The bytes come from the other process and are
/// not trusted: every length is checked against what is there, a value of another kind than
/// the one asked for is a `DecodingError`, never a crash, and nothing recurses on the bytes
/// alone (containers are skipped by their lengths; only the type being decoded nests).
struct ValueDecoder {
    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8], at offset: Int) throws -> Value {
        let reader = ValueReader(bytes)
        guard try reader.end(of: offset, path: nil) == bytes.count else {
            throw reader.corrupted("bytes after the value's end", path: nil)
        }
        return try reader.read(type, at: offset, path: nil)
    }
}

/// The bytes of one value, and how to find their parts.
final class ValueReader {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func tag(at offset: Int, path: CodingPathNode?) throws -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw corrupted("the value ends early", path: path) }
        return bytes[offset]
    }

    /// The 8-byte little-endian word at `offset`.
    func word(at offset: Int, path: CodingPathNode?) throws -> UInt64 {
        guard offset >= 0, bytes.count - offset >= 8 else { throw corrupted("the value ends early", path: path) }
        var word: UInt64 = 0
        for index in 0..<8 { word |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return word
    }

    /// The 4-byte length at `offset`, checked to fit in what follows it.
    func length(at offset: Int, path: CodingPathNode?) throws -> Int {
        guard offset >= 0, bytes.count - offset >= 4 else { throw corrupted("the value ends early", path: path) }
        var length = 0
        for index in 0..<4 { length |= Int(bytes[offset + index]) << (8 * index) }
        guard bytes.count - offset - 4 >= length else { throw corrupted("a length of \(length) past the value's end", path: path) }
        return length
    }

    /// The string (length and bytes, no tag) at `offset`, and where it ends.
    func string(at offset: Int, path: CodingPathNode?) throws -> (value: String, end: Int) {
        let length = try length(at: offset, path: path)
        let start = offset + 4
        let value = bytes.withUnsafeBufferPointer { String(decoding: $0[start..<start + length], as: UTF8.self) }
        return (value, start + length)
    }

    /// Where the value at `offset` ends.
    func end(of offset: Int, path: CodingPathNode?) throws -> Int {
        switch try tag(at: offset, path: path) {
        case ValueEncoder.Tag.null, ValueEncoder.Tag.no, ValueEncoder.Tag.yes: return offset + 1
        case ValueEncoder.Tag.signed, ValueEncoder.Tag.unsigned, ValueEncoder.Tag.double:
            guard bytes.count - offset >= 9 else { throw corrupted("the value ends early", path: path) }
            return offset + 9
        case ValueEncoder.Tag.string, ValueEncoder.Tag.keyed, ValueEncoder.Tag.unkeyed:
            return offset + 5 + (try length(at: offset + 1, path: path))
        case let tag: throw corrupted("a value of kind \(tag)", path: path)
        }
    }

    /// The body of the container at `offset`, checked to be of kind `tag`.
    func body(at offset: Int, _ tag: UInt8, of type: Any.Type, path: CodingPathNode?) throws -> Range<Int> {
        let found = try self.tag(at: offset, path: path)
        guard found == tag else { throw mismatch(type, found, path: path) }
        let length = try length(at: offset + 1, path: path)
        return offset + 5..<offset + 5 + length
    }

    func read<Value: Decodable>(_ type: Value.Type, at offset: Int, path: CodingPathNode?) throws -> Value {
        if let primitive = type as? any ValuePrimitive.Type {
            guard let value = try primitive.read(self, at: offset, path: path) as? Value else {
                throw corrupted("a \(type) that did not read as one", path: path)
            }
            return value
        }
        return try Value(from: ValueDecoding(reader: self, offset: offset, path: path))
    }

    func isNull(at offset: Int, path: CodingPathNode?) throws -> Bool {
        try tag(at: offset, path: path) == ValueEncoder.Tag.null
    }

    // MARK: Errors

    func corrupted(_ what: String, path: CodingPathNode?) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: CodingPathNode.path(path), debugDescription: what))
    }

    func mismatch(_ type: Any.Type, _ tag: UInt8, path: CodingPathNode?) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: CodingPathNode.path(path), debugDescription: "expected a \(type), found \(Self.kind(of: tag))")
        return tag == ValueEncoder.Tag.null ? .valueNotFound(type, context) : .typeMismatch(type, context)
    }

    static func kind(of tag: UInt8) -> String {
        switch tag {
        case ValueEncoder.Tag.null: "nil"
        case ValueEncoder.Tag.no, ValueEncoder.Tag.yes: "a Bool"
        case ValueEncoder.Tag.signed, ValueEncoder.Tag.unsigned: "an integer"
        case ValueEncoder.Tag.double: "a floating-point number"
        case ValueEncoder.Tag.string: "a string"
        case ValueEncoder.Tag.keyed: "a keyed container"
        case ValueEncoder.Tag.unkeyed: "an unkeyed container"
        default: "a value of kind \(tag)"
        }
    }
}
