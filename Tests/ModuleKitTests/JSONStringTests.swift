import Foundation
@_spi(Host) import ModuleKit
import Testing

/// The kit's JSON parser reads a string without escapes in one step and one with escapes byte
/// by byte: both give what Foundation's parser gives, and refuse what it refuses, wherever in
/// the string an escape, a bad byte or a control character lies.
@Suite struct JSONStringTests {
    /// The string the kit parses from `bytes` (a whole JSON document: one string), or nil.
    func kit(_ bytes: [UInt8]) -> String? {
        guard case .string(let text)? = try? JSONParser.parse(bytes) else { return nil }
        return text
    }

    /// What Foundation makes of the same bytes, or nil when it refuses them.
    func foundation(_ bytes: [UInt8]) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) as? String
    }

    static let accepted: [String] = [
        #""""#, #""Auth""#, #""Zürich, 東京 🗺""#, #""\n""#, #""\"quoted\"""#, #""tab\tin the middle""#,
        #""ends with an escape\\""#, #""\u00e9t\u00E9""#, #""\ud83d\uddfa map""#, #""a\u0000b""#, #""\/path\/""#,
        #""é before \n and ü after""#,
    ]

    @Test(arguments: accepted)
    func readsWhatFoundationReads(_ document: String) {
        let bytes = Array(document.utf8)
        let read = kit(bytes)
        #expect(read != nil)
        #expect(read == foundation(bytes))
    }

    static let refused: [(bytes: [UInt8], message: String)] = [
        // A byte that is not UTF-8, with no escape in the string and with one before or after it.
        ([0x22, 0x61, 0xFF, 0x22], "a string is not valid UTF-8"),
        ([0x22, 0x5C, 0x6E, 0xC3, 0x22], "a string is not valid UTF-8"),
        ([0x22, 0xC3, 0x5C, 0x6E, 0x22], "a string is not valid UTF-8"),
        // A lead byte an escape's own UTF-8 cannot complete.
        ([0x22, 0xC3] + Array(#"\u00e9""#.utf8), "a string is not valid UTF-8"),
        // A raw control character, before an escape and after one.
        ([0x22, 0x61, 0x0A, 0x22], "a control character in a string must be escaped"),
        ([0x22, 0x5C, 0x74, 0x01, 0x22], "a control character in a string must be escaped"),
        (Array(#""no end"#.utf8), "unexpected end of file inside a string"),
        (Array(#""an escape, then no end\n"#.utf8), "unexpected end of file inside a string"),
        (Array(#""\x""#.utf8), "invalid escape '\\x' in a string"),
    ]

    @Test(arguments: refused)
    func refusesWhatFoundationRefuses(_ bytes: [UInt8], message: String) {
        #expect(foundation(bytes) == nil)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
        do {
            _ = try JSONParser.parse(bytes)
        } catch {
            #expect(error.message == message)
        }
    }

    /// A bad byte is named where its run of the file's bytes ends: at the escape after it, before
    /// anything the escape or the rest of the string would say (line and column as the person
    /// reads them: the backslash is the third character here).
    @Test(
        arguments: [
            [0x22, 0xC3, 0x5C, 0x71, 0x22],  // then an invalid escape
            [0x22, 0xC3, 0x5C, 0x6E],  // then the end of the file
            [0x22, 0xC3, 0x5C, 0x6E, 0x01, 0x22],  // then a raw control character
            [0x22, 0xC3, 0x5C, 0x6E, 0x22],
        ] as [[UInt8]])
    func aBadByteIsNamedAtTheEscapeAfterIt(_ bytes: [UInt8]) {
        #expect(foundation(bytes) == nil)
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("\(bytes) was read")
        } catch {
            #expect(error.description == "line 1, column 3: a string is not valid UTF-8")
        }
    }

    @Test func aKeyAndAValueInAnObjectAreReadTheSameWay() throws {
        let document = Array(#"{"na\u006De": "Gen001", "plain": "é\"x\""}"#.utf8)
        #expect(
            try JSONParser.parse(document) == .object(["name": .string("Gen001"), "plain": .string("é\"x\"")]))
    }
}
