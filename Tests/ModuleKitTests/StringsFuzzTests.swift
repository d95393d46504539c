import Foundation
import TestSupport
import Testing

@testable import ModuleKit

/// Mutated strings files through the parser (a module's strings are input too): no crash, and
/// the mutations are noticed. Deterministic: a fixed seed, a fixed number of inputs.
@Suite struct StringsFuzzTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    @Test func theParserSurvivesMutatedFiles() throws {
        let shipped = TestEnvironment.buildFolder + "/Auth_AuthFeature.resources/Strings/el.lproj/Localizable.strings"
        let valid = Array(try String(contentsOfFile: shipped, encoding: .utf8).utf8)
        #expect((try? StringsFile.parse(String(decoding: valid, as: UTF8.self)))?.isEmpty == false)
        var generator = Generator(state: 11)
        let alphabet = Array(#""\;=/*un té"#.utf8) + [0x0A, 0xCE, 0xFF, 0x00]
        var refused = 0
        for _ in 0..<2_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                if Bool.random(using: &generator) {
                    bytes[index] = alphabet.randomElement(using: &generator) ?? 0
                } else {
                    bytes.remove(at: index)
                }
            }
            do {
                _ = try StringsFile.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                refused += 1
                #expect(error.line >= 1)
            }
        }
        #expect(refused > 100, "mutations are noticed")
    }
}
