import Foundation

/// Decodes a module's `config` strictly: JSONDecoder as usual, through a decoder that records
/// which keys the configuration type read, so that a key it never read (`"sorce"`) is an
/// error naming it, not a setting silently ignored.
enum StrictDecoding {
    static func decode<C: Decodable>(_ type: C.Type, from json: Data) throws -> C {
        let recorder = KeyRecorder()
        let box = try JSONDecoder().decode(Recorded<C>.self, from: json, configuration: recorder)
        if let unknown = recorder.unknownKeys.first {
            let near = recorder.known(at: unknown.path).min { editDistance($0, unknown.key) < editDistance($1, unknown.key) }
            let hint = near.flatMap { editDistance($0.lowercased(), unknown.key.lowercased()) <= 2 ? "; did you mean '\($0)'?" : nil }
            let known = recorder.known(at: unknown.path).sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw ConfigurationError(
                message: "\(unknown.path.isEmpty ? "config" : "config." + unknown.path).\(unknown.key) is not a setting"
                    + (hint ?? (known.isEmpty ? "; this module takes none" : "; use \(known)")))
        }
        return box.value
    }

    /// The decoded value, made through a recording decoder.
    private struct Recorded<Value: Decodable>: DecodableWithConfiguration {
        let value: Value
        init(from decoder: any Decoder, configuration recorder: KeyRecorder) throws {
            value = try Value(from: RecordingDecoder(base: decoder, recorder: recorder, path: ""))
        }
    }
}

/// The keys present in each object of the JSON and the keys the type asked for.
final class KeyRecorder: @unchecked Sendable {
    // Unchecked: used only during one synchronous decode, on one thread.
    private var present: [String: Set<String>] = [:]
    private var used: [String: Set<String>] = [:]

    func saw(_ keys: [String], at path: String) { present[path, default: []].formUnion(keys) }
    func read(_ key: String, at path: String) { used[path, default: []].insert(key) }
    func known(at path: String) -> Set<String> { used[path] ?? [] }

    var unknownKeys: [(path: String, key: String)] {
        present.keys.sorted().flatMap { path in
            present[path, default: []].subtracting(used[path] ?? []).sorted().map { (path, $0) }
        }
    }
}

private struct RecordedKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

/// Forwards to JSONDecoder's decoder; each keyed container reports its keys to the recorder.
private struct RecordingDecoder: Decoder {
    let base: any Decoder
    let recorder: KeyRecorder
    let path: String

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorder.saw(try base.container(keyedBy: RecordedKey.self).allKeys.map(\.stringValue), at: path)
        return KeyedDecodingContainer(RecordingKeyed(base: try base.container(keyedBy: type), recorder: recorder, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }
}

private struct RecordingKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let base: KeyedDecodingContainer<Key>
    let recorder: KeyRecorder
    let path: String

    var codingPath: [any CodingKey] { base.codingPath }
    var allKeys: [Key] { base.allKeys }

    private func mark(_ key: Key) { recorder.read(key.stringValue, at: path) }
    private func child(_ key: Key) -> String { path.isEmpty ? key.stringValue : path + "." + key.stringValue }

    func contains(_ key: Key) -> Bool {
        mark(key)
        return base.contains(key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        mark(key)
        return try base.decodeNil(forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try plain(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try plain(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try plain(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try plain(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try plain(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try plain(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try plain(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try plain(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try plain(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try plain(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try plain(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try plain(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try plain(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try plain(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        mark(key)
        // Foundation's own types decode specially in JSONDecoder (a URL from a string): as is.
        if T.self == URL.self || T.self == Date.self || T.self == Data.self || T.self == Decimal.self {
            return try base.decode(type, forKey: key)
        }
        return try T(from: RecordingDecoder(base: try base.superDecoder(forKey: key), recorder: recorder, path: child(key)))
    }

    private func plain<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        mark(key)
        return try base.decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        mark(key)
        return try RecordingDecoder(base: try base.superDecoder(forKey: key), recorder: recorder, path: child(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        mark(key)
        return try base.nestedUnkeyedContainer(forKey: key)
    }

    func superDecoder() throws -> any Decoder { try base.superDecoder() }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        mark(key)
        return RecordingDecoder(base: try base.superDecoder(forKey: key), recorder: recorder, path: child(key))
    }
}
