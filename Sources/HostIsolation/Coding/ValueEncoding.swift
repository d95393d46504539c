/// The `Encoder` a value's `encode(to:)` is given: its containers write straight into the
/// shared ``ValueWriter``.
struct ValueEncoding: Encoder {
    let writer: ValueWriter
    let path: CodingPathNode?
    /// Where the value goes: a second container or value asked of this encoder finds
    /// something written there already (JSON merges them; one pass cannot).
    let start: Int

    init(writer: ValueWriter, path: CodingPathNode?) {
        self.writer = writer
        self.path = path
        start = writer.bytes.count
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        claim()
        return KeyedEncodingContainer(KeyedWriting<Key>(writer: writer, id: writer.openContainer(ValueEncoder.Tag.keyed), path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        claim()
        return UnkeyedWriting(writer: writer, id: writer.openContainer(ValueEncoder.Tag.unkeyed), path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleWriting(encoding: self)
    }

    func claim() {
        if writer.bytes.count != start { writer.unsupported = true }
    }
}

struct KeyedWriting<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: ValueWriter
    let id: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }

    private func at(_ key: Key) {
        writer.prepare(id)
        writer.key(key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws {
        at(key)
        writer.tag(ValueEncoder.Tag.null)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        at(key)
        value.write(to: writer)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        at(key)
        writer.string(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        at(key)
        value.write(to: writer)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        at(key)
        value.write(to: writer)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        at(key)
        try writer.write(value, path: CodingPathNode(parent: path, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        at(key)
        return KeyedEncodingContainer(
            KeyedWriting<NestedKey>(
                writer: writer, id: writer.openContainer(ValueEncoder.Tag.keyed), path: CodingPathNode(parent: path, key: key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        at(key)
        return UnkeyedWriting(
            writer: writer, id: writer.openContainer(ValueEncoder.Tag.unkeyed), path: CodingPathNode(parent: path, key: key))
    }

    mutating func superEncoder() -> any Encoder { unsupported() }

    mutating func superEncoder(forKey key: Key) -> any Encoder { unsupported() }

    /// An encoder into a throwaway writer: the value is written as JSON instead.
    private func unsupported() -> any Encoder {
        writer.unsupported = true
        return ValueEncoding(writer: ValueWriter(prefix: 0), path: path)
    }
}

struct UnkeyedWriting: UnkeyedEncodingContainer {
    let writer: ValueWriter
    let id: Int
    let path: CodingPathNode?
    private(set) var count = 0

    init(writer: ValueWriter, id: Int, path: CodingPathNode?) {
        self.writer = writer
        self.id = id
        self.path = path
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }

    private mutating func next() -> CodingPathNode {
        writer.prepare(id)
        defer { count += 1 }
        return CodingPathNode(parent: path, key: IndexKey(intValue: count))
    }

    mutating func encodeNil() throws {
        writer.prepare(id)
        count += 1
        writer.tag(ValueEncoder.Tag.null)
    }

    mutating func encode(_ value: String) throws {
        writer.prepare(id)
        count += 1
        writer.string(value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let primitive = value as? any ValuePrimitive {
            writer.prepare(id)
            count += 1
            primitive.write(to: writer)
        } else {
            try writer.write(value, path: next())
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = next()
        return KeyedEncodingContainer(KeyedWriting<NestedKey>(writer: writer, id: writer.openContainer(ValueEncoder.Tag.keyed), path: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = next()
        return UnkeyedWriting(writer: writer, id: writer.openContainer(ValueEncoder.Tag.unkeyed), path: path)
    }

    mutating func superEncoder() -> any Encoder {
        writer.unsupported = true
        return ValueEncoding(writer: ValueWriter(prefix: 0), path: path)
    }
}

/// One value where the encoder stands: the writer is already at its place.
struct SingleWriting: SingleValueEncodingContainer {
    let encoding: ValueEncoding

    var codingPath: [any CodingKey] { encoding.codingPath }

    private var writer: ValueWriter {
        encoding.claim()
        return encoding.writer
    }

    mutating func encodeNil() throws { writer.tag(ValueEncoder.Tag.null) }

    mutating func encode(_ value: String) throws { writer.string(value) }

    mutating func encode(_ value: Bool) throws { value.write(to: writer) }

    mutating func encode(_ value: Int) throws { value.write(to: writer) }

    mutating func encode(_ value: Double) throws { value.write(to: writer) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try writer.write(value, path: encoding.path)
    }
}
