/// Values written without a container — their tag and bytes — and read back exactly: an
/// integer that does not fit the type asked for is an error, never truncated.
protocol ValuePrimitive {
    func write(to writer: ValueWriter)
    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> Self
}

extension Bool: ValuePrimitive {
    func write(to writer: ValueWriter) { writer.tag(self ? ValueEncoder.Tag.yes : ValueEncoder.Tag.no) }

    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> Bool {
        switch try reader.tag(at: offset, path: path) {
        case ValueEncoder.Tag.yes: return true
        case ValueEncoder.Tag.no: return false
        case let tag: throw reader.mismatch(Bool.self, tag, path: path)
        }
    }
}

extension String: ValuePrimitive {
    func write(to writer: ValueWriter) { writer.string(self) }

    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> String {
        let tag = try reader.tag(at: offset, path: path)
        guard tag == ValueEncoder.Tag.string else { throw reader.mismatch(String.self, tag, path: path) }
        return try reader.string(at: offset + 1, path: path).value
    }
}

extension Double: ValuePrimitive {
    func write(to writer: ValueWriter) { writer.integer(ValueEncoder.Tag.double, bitPattern) }

    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> Double {
        let tag = try reader.tag(at: offset, path: path)
        guard tag == ValueEncoder.Tag.double else { throw reader.mismatch(Double.self, tag, path: path) }
        return Double(bitPattern: try reader.word(at: offset + 1, path: path))
    }
}

extension Float: ValuePrimitive {
    func write(to writer: ValueWriter) { writer.integer(ValueEncoder.Tag.double, Double(self).bitPattern) }

    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> Float {
        Float(try Double.read(reader, at: offset, path: path))
    }
}

/// Integers of every width cross as 8 bytes, signed or not.
protocol IntegerPrimitive: ValuePrimitive, FixedWidthInteger {}

extension IntegerPrimitive {
    func write(to writer: ValueWriter) {
        if Self.isSigned {
            writer.integer(ValueEncoder.Tag.signed, Int64(truncatingIfNeeded: self))
        } else {
            writer.integer(ValueEncoder.Tag.unsigned, UInt64(truncatingIfNeeded: self))
        }
    }

    static func read(_ reader: ValueReader, at offset: Int, path: CodingPathNode?) throws -> Self {
        let tag = try reader.tag(at: offset, path: path)
        guard tag == ValueEncoder.Tag.signed || tag == ValueEncoder.Tag.unsigned else { throw reader.mismatch(Self.self, tag, path: path) }
        let word = try reader.word(at: offset + 1, path: path)
        let signed = tag == ValueEncoder.Tag.signed
        guard let value = signed ? Self(exactly: Int64(bitPattern: word)) : Self(exactly: word) else {
            throw reader.corrupted("\(signed ? "\(Int64(bitPattern: word))" : "\(word)") does not fit a \(Self.self)", path: path)
        }
        return value
    }
}

extension Int: IntegerPrimitive {}
extension Int8: IntegerPrimitive {}
extension Int16: IntegerPrimitive {}
extension Int32: IntegerPrimitive {}
extension Int64: IntegerPrimitive {}
extension UInt: IntegerPrimitive {}
extension UInt8: IntegerPrimitive {}
extension UInt16: IntegerPrimitive {}
extension UInt32: IntegerPrimitive {}
extension UInt64: IntegerPrimitive {}
