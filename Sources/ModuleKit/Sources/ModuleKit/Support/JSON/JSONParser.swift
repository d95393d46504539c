/// A strict JSON parser that says where a syntax error is (line and column) and refuses
/// duplicate keys, which Foundation's decoders silently merge: for `modules.json` (the host)
/// and for a module's `config` (``ModuleInstance``), without loading JSONDecoder at start.
@_spi(Host)
public struct JSONParser {
    /// A syntax error at a line and column (both from 1).
    public struct SyntaxError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 256

    /// Parses `bytes` as one JSON value with nothing but whitespace after it.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func parseValue() throws(SyntaxError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try nested { (parser: inout JSONParser) throws(SyntaxError) in try parser.parseObject() }
        case UInt8(ascii: "["): return try nested { (parser: inout JSONParser) throws(SyntaxError) in try parser.parseArray() }
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character \(describe(byte)); expected a value")
        }
    }

    private mutating func nested(_ parse: (inout JSONParser) throws(SyntaxError) -> JSONValue) throws(SyntaxError) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        return try parse(&self)
    }

    private mutating func parseObject() throws(SyntaxError) -> JSONValue {
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let keyStart = position
            let key = try parseString()
            guard members[key] == nil else {
                position = keyStart
                throw error("duplicate key '\(Escaped(key))'")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key '\(Escaped(key))'") }
            position += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw error("expected ',' or '}' after the value of '\(Escaped(key))'")
            }
        }
    }

    private mutating func parseArray() throws(SyntaxError) -> JSONValue {
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(items)
            default: throw error("expected ',' or ']' after an array item")
            }
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        position += 1
        let start = position
        // Most strings hold no escape: they are the bytes between the quotes, checked once.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 { position += 1 }
        if current == UInt8(ascii: "\"") {
            let text = try validated(bytes[start..<position])
            position += 1
            return text
        }
        // With escapes: put together as UTF-8, each run of the file's bytes checked where it
        // ends (at an escape, as at the closing quote), so that a bad byte is named there.
        var utf8 = Array(bytes[start..<position])
        var run = 0
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                _ = try validated(utf8[run...])
                position += 1
                // Every run checked, and an escape's UTF-8 is whole: the bytes are UTF-8.
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                _ = try validated(utf8[run...])
                position += 1
                UTF8.encode(try parseEscape()) { utf8.append($0) }
                run = utf8.count
            case 0..<0x20:
                throw error("a control character in a string must be escaped")
            default:
                utf8.append(byte)
                position += 1
            }
        }
        throw error("unexpected end of file inside a string")
    }

    /// A string's bytes as text, refused (where the run of them ends) when they are not UTF-8.
    private func validated(_ utf8: ArraySlice<UInt8>) throws(SyntaxError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
        return text
    }

    private mutating func parseEscape() throws(SyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unexpected end of file inside a string") }
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a \\u escape of a high surrogate must be followed by a low surrogate")
                }
                position += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                else { throw error("invalid surrogate pair in a \\u escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("invalid \\u escape") }
            return scalar
        default:
            position -= 1
            let shown = (0x21..<0x7F).contains(byte) ? String(Character(Unicode.Scalar(byte))) : describe(byte)
            throw error("invalid escape '\\\(shown)' in a string")
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = hexDigitValue(byte) else { throw error("expected four hex digits after \\u") }
            value = value * 16 + digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, Self.isDigit(first) else { throw error("expected a digit in a number") }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = current, Self.isDigit(next) { throw error("a number must not start with 0") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard let next = current, Self.isDigit(next) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let next = current, Self.isDigit(next) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number '\(Escaped(text))' is out of range") }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private mutating func skipDigits() {
        while let byte = current, Self.isDigit(byte) { position += 1 }
    }

    private mutating func expectWord(_ word: String) throws(SyntaxError) {
        let start = position
        for expected in word.utf8 {
            guard current == expected else {
                position = start
                throw error("unexpected text; expected '\(word)'")
            }
            position += 1
        }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// An error at the current position, counted in lines and characters.
    private func error(_ message: String) -> SyntaxError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(position, bytes.count) where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        let prefix = bytes[lineStart..<min(position, bytes.count)]
        let column = String(decoding: prefix, as: UTF8.self).count + 1
        return SyntaxError(line: line, column: column, message: message)
    }
}
