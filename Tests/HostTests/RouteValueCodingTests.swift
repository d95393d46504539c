import Contracts
import Foundation
import TestSupport
import Testing

@testable import HostIsolation

/// The binary form route values cross in: every shape Codable makes reads back equal, a value
/// one pass cannot write goes as JSON and still reads back, and bytes from a hostile process —
/// cut short, of the wrong kind, random — are a thrown error, never a crash.
@Suite struct RouteValueCodingTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case named(String, sides: Int8)
        case none
    }

    struct Everything: Codable, Equatable {
        var text = "Lyon — \u{1B}[2J ü"
        var empty = ""
        var flag = true
        var small: Int8 = -128
        var wide = Int64.min
        var unsigned = UInt64.max
        var float: Float = 0.1
        var double = -2.5e-300
        var missing: String?
        var present: Int? = 0
        var nested: [[Int]] = [[], [1, 2], [3]]
        var byName = ["b": 2, "a": 1]
        var byNumber = [3: "three", 1: "one"]
        var shapes: [Shape] = [.circle(radius: 1), .named("hex", sides: 6), .none]
        var optionals: [String?] = [nil, "x", nil]
        var date = Date(timeIntervalSince1970: 1_700_000_000.25)
        var data = Data([0, 255, 7])
        var url = URL(string: "file:///tmp/a%20b")
        var city = SavedCity(country: "FR", countryName: "France", city: "Lyon")
    }

    /// Its `encode(to:)` writes into a container after opening a sibling, and asks a super
    /// encoder: what one pass cannot write.
    struct Interleaved: Codable, Equatable {
        var first = 1
        var second = [2, 3]

        enum Keys: String, CodingKey { case first, second, parent }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var list = container.nestedUnkeyedContainer(forKey: .second)
            try container.encode(first, forKey: .first)
            for value in second { try list.encode(value) }
            try "base".encode(to: container.superEncoder(forKey: .parent))
        }
    }

    @Test func everyShapeReadsBackEqual() throws {
        let value = Everything()
        let bytes = try RouteValueCoding.encode(value)
        #expect(bytes.first == RouteValueCoding.binary)
        #expect(try RouteValueCoding.decode(Everything.self, from: bytes) == value)
        for scalar in [0, 1, -1, Int.max, Int.min] {
            #expect(try RouteValueCoding.decode(Int.self, from: RouteValueCoding.encode(scalar)) == scalar)
        }
        #expect(try RouteValueCoding.decode([SavedCity].self, from: RouteValueCoding.encode([SavedCity]())) == [])
    }

    @Test func whatOnePassCannotWriteGoesAsJSON() throws {
        let bytes = try RouteValueCoding.encode(Interleaved())
        #expect(bytes.first == RouteValueCoding.json)
        let read = try RouteValueCoding.decode([String: AnyCodableNumberOrList].self, from: bytes)
        #expect(read["first"] == .number(1) && read["second"] == .list([2, 3]) && read["parent"] == .text("base"))
    }

    @Test func anIntegerThatDoesNotFitIsAnErrorNotATruncation() throws {
        let bytes = try RouteValueCoding.encode(300)
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(UInt8.self, from: bytes) }
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(UInt.self, from: RouteValueCoding.encode(-1)) }
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(String.self, from: bytes) }
    }

    @Test func bytesCutShortOrWrongAreErrors() throws {
        let bytes = try RouteValueCoding.encode(Everything())
        for end in 0..<bytes.count {
            #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(Everything.self, from: Array(bytes[..<end])) }
        }
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(Everything.self, from: bytes + [0]) }
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(Everything.self, from: [UInt8(ascii: "X")] + bytes.dropFirst()) }
        // A length that claims more than is there.
        var long = try RouteValueCoding.encode("abc")
        long[2] = 0xFF
        #expect(throws: RouteCallError.self) { try RouteValueCoding.decode(String.self, from: long) }
    }

    /// Random bytes, and valid ones with one byte changed, seeded so a failure repeats: each
    /// reads or throws.
    @Test func randomBytesNeverCrash() throws {
        var generator = SeededGenerator(state: 0x5EED)
        let valid = try RouteValueCoding.encode(Everything())
        var read = 0
        for round in 0..<4_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes =
                    [RouteValueCoding.binary] + (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            } else {
                bytes = valid
                bytes[1 + Int(generator.next() % UInt64(valid.count - 1))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if (try? RouteValueCoding.decode(Everything.self, from: bytes)) != nil { read += 1 }
            _ = try? RouteValueCoding.decode([[String?]].self, from: bytes)
        }
        #expect(read < 4_000)
    }
}

/// What the JSON fallback's value reads back as, without knowing its type.
enum AnyCodableNumberOrList: Decodable, Equatable {
    case number(Int)
    case list([Int])
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else if let list = try? container.decode([Int].self) {
            self = .list(list)
        } else {
            self = .text(try container.decode(String.self))
        }
    }
}
