import Dispatch
import FoundationEssentials

/// Decodes a `Decodable` value from a parsed ``JSONValue``, recording the keys each object
/// holds and the keys the type read (see ``StrictDecoding``).
///
/// The kit's own decoder rather than `JSONDecoder`: a module's `config` is decoded at every
/// start, and JSONDecoder's code is about 1.5 MiB of a start's memory (measured in a small
/// program). It follows JSONDecoder's defaults: numbers must fit the type exactly, a `URL` is a
/// string, `Data` is Base64 text, and the errors are `DecodingError`s (a number that does not
/// fit is a type mismatch). Unlike JSONDecoder, an optional key's problem does not end the
/// decoding: it is recorded and the key reads as absent, so that every problem is told at once.
struct ConfigDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let recorder: KeyRecorder
    /// Where this value's object keys are recorded; `nil` inside an array (not checked there).
    let recordingPath: String?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else {
            throw DecodingError.typeMismatch([String: Any].self, context("Expected an object but found \(value.kindWord)."))
        }
        if let recordingPath { recorder.saw(Array(fields.keys), at: recordingPath) }
        return KeyedDecodingContainer(Keyed(fields: fields, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else {
            throw DecodingError.typeMismatch([Any].self, context("Expected an array but found \(value.kindWord)."))
        }
        return Unkeyed(items: items, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    func context(_ text: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: text)
    }

    /// The decoder of `child`, found under `key`.
    func child(_ child: JSONValue, key: any CodingKey, recordingPath: String?) -> ConfigDecoder {
        ConfigDecoder(value: child, codingPath: codingPath + [key], recorder: recorder, recordingPath: recordingPath)
    }

    /// `T` from this value: the types JSONDecoder decodes specially, then the rest through
    /// their own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let single = Single(decoder: self)
        let special: Any?
        switch type {
        case is URL.Type:
            guard let url = URL(string: try single.decode(String.self)) else {
                throw DecodingError.dataCorrupted(context("expected a URL"))
            }
            special = url
        case is Data.Type:
            guard let data = Data(base64Encoded: try single.decode(String.self)) else {
                throw DecodingError.dataCorrupted(context("expected Base64 text"))
            }
            special = data
        case is Decimal.Type:
            guard case .number(let number) = value else {
                throw DecodingError.typeMismatch(Decimal.self, context("Expected a number but found \(value.kindWord) instead."))
            }
            special = Decimal(number)
        default:
            special = nil
        }
        if let special, let value = special as? T { return value }
        return try T(from: self)
    }
}

extension JSONValue {
    /// How a decoding error names this value ("a string").
    var kindWord: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// The key JSONDecoder gives a keyed container's `superDecoder()`.
private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

/// An array's index as a coding key, for error paths (`config.sizes.[2]`).
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: JSONValue]
    let decoder: ConfigDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    private func mark(_ key: Key) {
        if let path = decoder.recordingPath { decoder.recorder.read(key.stringValue, at: path) }
    }

    private func childPath(_ key: Key) -> String? {
        decoder.recordingPath.map { $0.isEmpty ? key.stringValue : $0 + "." + key.stringValue }
    }

    func contains(_ key: Key) -> Bool {
        mark(key)
        return fields[key.stringValue] != nil
    }

    private func field(_ key: Key) throws -> ConfigDecoder {
        guard let field = present(key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return field
    }

    /// The decoder of the value under `key`, if there is one.
    private func present(_ key: Key) -> ConfigDecoder? {
        mark(key)
        return fields[key.stringValue].map { decoder.child($0, key: key, recordingPath: childPath(key)) }
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try field(key).value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(key).decode(type) }

    // Each type its own overload: the protocol's defaults for the standard types would win
    // over a generic one, and they end the decoding at the first problem.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { optional(type, key) }

    /// The value, or `nil` when it is absent or null; when it is of the wrong type, the problem
    /// is recorded and the key reads as absent, so the decoding goes on to the other keys.
    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        guard let child = present(key) else { return nil }
        if case .null = child.value { return nil }
        do {
            return try child.decode(type)
        } catch let error as DecodingError {
            decoder.recorder.problems.append(ConfigurationError(decoding: error, in: decoder.recorder.root).message)
        } catch let error as ConfigurationError {
            decoder.recorder.problems += error.problems
        } catch {
            decoder.recorder.problems.append("\(ConfigurationError.path(child.codingPath)): \(error)")
        }
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try field(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try field(key).unkeyedContainer() }

    func superDecoder() throws -> any Decoder {
        decoder.child(.object(fields), key: SuperKey(), recordingPath: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        mark(key)
        return decoder.child(fields[key.stringValue] ?? .null, key: key, recordingPath: childPath(key))
    }
}

private struct Unkeyed: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let decoder: ConfigDecoder
    private(set) var currentIndex = 0

    init(items: [JSONValue], decoder: ConfigDecoder) {
        self.items = items
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item's decoder, moving past it.
    private mutating func next<T>(_ type: T.Type) throws -> ConfigDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(intValue: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        defer { currentIndex += 1 }
        return decoder.child(items[currentIndex], key: IndexKey(intValue: currentIndex), recordingPath: nil)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next([Any].self).unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

private struct Single: SingleValueDecodingContainer {
    let decoder: ConfigDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        if case .null = decoder.value { return true }
        return false
    }

    private func mismatch<T>(_ type: T.Type, _ expected: String) -> DecodingError {
        if case .null = decoder.value {
            return .valueNotFound(type, decoder.context("Expected \(expected) but found null instead."))
        }
        return .typeMismatch(type, decoder.context("Expected to decode \(type) but found \(decoder.value.kindWord) instead."))
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = decoder.value else { throw mismatch(type, "a boolean") }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let value) = decoder.value else { throw mismatch(type, "a string") }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let value) = decoder.value else { throw mismatch(type, "a number") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float {
        let value = try decode(Double.self)
        guard value.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(decoder.context("expected a number of at most 3.4e38 in size"))
        }
        return Float(value)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    /// A whole number that fits `T` exactly, as JSONDecoder requires.
    private func integer<T: BinaryInteger>(_ type: T.Type) throws -> T {
        guard case .number(let value) = decoder.value else { throw mismatch(type, "a number") }
        // A number that does not fit is of the wrong type too: the message says which fit.
        guard let exact = T(exactly: value) else { throw DecodingError.typeMismatch(type, decoder.context("Number out of range.")) }
        return exact
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
}
