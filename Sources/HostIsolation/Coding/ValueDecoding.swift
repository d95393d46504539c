/// The `Decoder` a value's `init(from:)` is given: the value at one offset of the reader.
struct ValueDecoding: Decoder {
    let reader: ValueReader
    let offset: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try KeyedReading<Key>(reader: reader, offset: offset, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try UnkeyedReading(reader: reader, offset: offset, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleReading(reader: reader, offset: offset, path: path)
    }
}

struct KeyedReading<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: ValueReader
    let path: CodingPathNode?
    /// Each key and where its value starts, in the order written (a handful: searched in turn).
    private let entries: [(key: String, offset: Int)]

    init(reader: ValueReader, offset: Int, path: CodingPathNode?) throws {
        self.reader = reader
        self.path = path
        let body = try reader.body(at: offset, ValueEncoder.Tag.keyed, of: [String: Any].self, path: path)
        var entries: [(key: String, offset: Int)] = []
        var at = body.lowerBound
        while at < body.upperBound {
            let (key, valueAt) = try reader.string(at: at, path: path)
            entries.append((key, valueAt))
            at = try reader.end(of: valueAt, path: path)
        }
        guard at == body.upperBound else { throw reader.corrupted("a container's values run past its end", path: path) }
        self.entries = entries
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }
    var allKeys: [Key] { entries.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    private func find(_ key: Key) -> Int? {
        let name = key.stringValue
        return entries.first { $0.key == name }?.offset
    }

    private func offset(of key: Key) throws -> Int {
        guard let offset = find(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value for '\(key.stringValue)'"))
        }
        return offset
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try reader.isNull(at: try offset(of: key), path: path)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try String.read(reader, at: try offset(of: key), path: CodingPathNode(parent: path, key: key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try Int.read(reader, at: try offset(of: key), path: CodingPathNode(parent: path, key: key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try Bool.read(reader, at: try offset(of: key), path: CodingPathNode(parent: path, key: key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try reader.read(type, at: try offset(of: key), path: CodingPathNode(parent: path, key: key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        KeyedDecodingContainer(
            try KeyedReading<NestedKey>(reader: reader, offset: try offset(of: key), path: CodingPathNode(parent: path, key: key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try UnkeyedReading(reader: reader, offset: try offset(of: key), path: CodingPathNode(parent: path, key: key))
    }

    func superDecoder() throws -> any Decoder { throw unsupported() }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported() }

    /// The writer sends a value that needs one as JSON: the binary form never has one.
    private func unsupported() -> DecodingError {
        reader.corrupted("a super decoder in the binary form", path: path)
    }
}

struct UnkeyedReading: UnkeyedDecodingContainer {
    let reader: ValueReader
    let path: CodingPathNode?
    /// Where each value starts.
    private let offsets: [Int]
    private(set) var currentIndex = 0

    init(reader: ValueReader, offset: Int, path: CodingPathNode?) throws {
        self.reader = reader
        self.path = path
        let body = try reader.body(at: offset, ValueEncoder.Tag.unkeyed, of: [Any].self, path: path)
        var offsets: [Int] = []
        var at = body.lowerBound
        while at < body.upperBound {
            offsets.append(at)
            at = try reader.end(of: at, path: path)
        }
        guard at == body.upperBound else { throw reader.corrupted("a container's values run past its end", path: path) }
        self.offsets = offsets
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }
    var count: Int? { offsets.count }
    var isAtEnd: Bool { currentIndex >= offsets.count }

    /// Where the next value starts, and its coding path.
    private func next(_ type: Any.Type) throws -> (offset: Int, path: CodingPathNode) {
        let here = CodingPathNode(parent: path, key: IndexKey(intValue: currentIndex))
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, DecodingError.Context(codingPath: CodingPathNode.path(here), debugDescription: "the container has no more values"))
        }
        return (offsets[currentIndex], here)
    }

    mutating func decodeNil() throws -> Bool {
        let (offset, here) = try next(Never.self)
        let isNull = try reader.isNull(at: offset, path: here)
        if isNull { currentIndex += 1 }
        return isNull
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (offset, here) = try next(type)
        let value = try reader.read(type, at: offset, path: here)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (offset, here) = try next([String: Any].self)
        let container = try KeyedReading<NestedKey>(reader: reader, offset: offset, path: here)
        currentIndex += 1
        return KeyedDecodingContainer(container)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (offset, here) = try next([Any].self)
        let container = try UnkeyedReading(reader: reader, offset: offset, path: here)
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        throw reader.corrupted("a super decoder in the binary form", path: path)
    }
}

struct SingleReading: SingleValueDecodingContainer {
    let reader: ValueReader
    let offset: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(path) }

    func decodeNil() -> Bool { (try? reader.isNull(at: offset, path: path)) ?? false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try reader.read(type, at: offset, path: path)
    }
}
