/// Writes a Codable value in the route link's binary form, in one pass and without a tree:
/// each container is written where it opens and closed (its length filled in) when a write
/// arrives at a shallower level or the value ends. JSON cost a route call as much as a system
/// call on each side (`modhost-bench isolation`, docs/ISOLATION.md).
///
/// The form, little-endian: a tag byte, then
/// - `nil`, `false`, `true`: nothing more;
/// - a signed or unsigned integer, a double: 8 bytes;
/// - a string: its length (4 bytes) and its UTF-8;
/// - a keyed container: the length of its body (4 bytes), then each key (as a string's length
///   and bytes) followed by its value;
/// - an unkeyed container: the length of its body, then its values.
///
/// What this writer cannot put in one pass — containers written into after a sibling was
/// opened, `superEncoder` — makes ``encode(_:)`` return `nil`; RouteValueCoding then writes
/// the value as JSON, so every Codable value crosses.
struct ValueEncoder {
    enum Tag {
        static let null: UInt8 = 0
        static let no: UInt8 = 1
        static let yes: UInt8 = 2
        static let signed: UInt8 = 3
        static let unsigned: UInt8 = 4
        static let double: UInt8 = 5
        static let string: UInt8 = 6
        static let keyed: UInt8 = 7
        static let unkeyed: UInt8 = 8
    }

    /// `value` in the binary form after `prefix`, or `nil` when it needs what one pass cannot do.
    static func encode(_ value: some Encodable, after prefix: UInt8) throws -> [UInt8]? {
        let writer = ValueWriter(prefix: prefix)
        try writer.write(value, path: nil)
        writer.closeAll()
        return writer.unsupported ? nil : writer.bytes
    }
}

/// The bytes being written and the containers open in them, innermost last.
final class ValueWriter {
    var bytes: [UInt8]
    /// Each open container: its number and where its length goes.
    private var open: [(id: Int, lengthAt: Int)] = []
    private var lastID = 0
    /// Set by what one pass cannot write.
    var unsupported = false

    init(prefix: UInt8) {
        bytes = [prefix]
        bytes.reserveCapacity(256)
    }

    // MARK: Containers

    /// Opens a container; its number, for ``prepare(_:)`` before each write into it.
    func openContainer(_ tag: UInt8) -> Int {
        bytes.append(tag)
        lastID += 1
        open.append((lastID, bytes.count))
        bytes.append(contentsOf: [0, 0, 0, 0])
        return lastID
    }

    /// Closes the containers opened inside container `id` since; marks the value unsupported
    /// when `id` itself was closed (a sibling's write came between).
    func prepare(_ id: Int) {
        while let last = open.last, last.id != id {
            guard last.id > id else {
                unsupported = true
                return
            }
            close()
        }
        if open.isEmpty && id != 0 { unsupported = true }
    }

    private func close() {
        guard let last = open.popLast() else { return }
        let length = UInt32(truncatingIfNeeded: bytes.count - last.lengthAt - 4)
        for index in 0..<4 { bytes[last.lengthAt + index] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(index))) }
    }

    func closeAll() {
        while !open.isEmpty { close() }
    }

    /// The depth of open containers, to tell whether a value's encoding wrote anything.
    var depth: Int { open.count }

    // MARK: Values

    func tag(_ tag: UInt8) { bytes.append(tag) }

    func integer<Value: FixedWidthInteger>(_ tag: UInt8, _ value: Value) {
        bytes.append(tag)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func string(_ value: String) {
        bytes.append(ValueEncoder.Tag.string)
        key(value)
    }

    /// A string without its tag: a key.
    func key(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
    }

    /// Any value: a primitive at once, anything else through its `encode(to:)`. An encoding
    /// that asked for no container writes an empty keyed one, as JSON writes `{}`.
    func write(_ value: some Encodable, path: CodingPathNode?) throws {
        if let primitive = value as? any ValuePrimitive {
            primitive.write(to: self)
            return
        }
        let before = bytes.count
        let depth = depth
        try value.encode(to: ValueEncoding(writer: self, path: path))
        while self.depth > depth { close() }
        if bytes.count == before { closeEmpty() }
    }

    private func closeEmpty() {
        bytes.append(ValueEncoder.Tag.keyed)
        bytes.append(contentsOf: [0, 0, 0, 0])
    }
}

/// The coding path, built only when an error or a caller asks for it.
final class CodingPathNode {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func path(_ node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = node
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

/// An index in an unkeyed container, as a coding key.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
