import Foundation
@_spi(Host) import ModuleKit
import TestSupport
import Testing

@testable import HostModel

/// Mutated inputs for the two readers of hostile data: no crash, and every answer is either a
/// value or a clear error. Bounded: a fixed number of inputs from fixed seeds.
@Suite struct FuzzTests {
    /// Reads a descriptor from `bytes` written to a private file, as the host would.
    func readDescriptor(_ bytes: [UInt8], in folder: String) throws -> Result<ModuleDescriptor, DescriptorError> {
        let path = folder + "/lib.so"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try TrustedFile(path: path, maximumSize: 64 << 20)
        return Result { () throws(DescriptorError) in try DescriptorReader.read(fileDescriptor: file.descriptor) }
    }

    @Test func theELFReaderSurvivesMutatedAndTruncatedLibraries() throws {
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureProvider"))))
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        guard case .success(let expected) = try readDescriptor(original, in: folder) else {
            Issue.record("the unmutated library must read")
            return
        }
        #expect(expected.name == "FixtureProvider")
        // Where the interesting bytes are: the ELF header, the section headers, the descriptor.
        let sectionHeaders = Int(
            original[0x28..<0x30].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
        let descriptorStart = HostileLibrary.find(Array("MHDS".utf8), in: original) ?? 0
        var generator = SeededGenerator(state: 9)
        var outcomes: [String: Int] = [:]
        for round in 0..<400 {
            var bytes = original
            switch round % 4 {
            case 0:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    bytes[Int.random(in: 0..<64, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            case 2:
                for _ in 0..<Int.random(in: 1...16, using: &generator) {
                    let index = min(bytes.count - 1, sectionHeaders + Int.random(in: 0..<4_096, using: &generator))
                    bytes[index] = UInt8.random(in: 0...255, using: &generator)
                }
            default:
                for _ in 0..<Int.random(in: 1...6, using: &generator) {
                    bytes[descriptorStart + Int.random(in: 0..<160, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            }
            switch try readDescriptor(bytes, in: folder) {
            case .success(let descriptor):
                outcomes["read", default: 0] += 1
                #expect(ModuleDescriptor.isIdentifier(descriptor.name))
            case .failure(let error):
                outcomes["\(error)".prefix(while: { $0 != "(" }).description, default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 400)
        #expect(outcomes.count > 2, "the mutations reach several outcomes: \(outcomes)")
    }

    @Test func theModulesFileDecoderSurvivesMutatedInput() throws {
        let valid = Array(
            #"""
            {"environment": "test", "searchPaths": ["lib"], "modules": [
              {"name": "Geo", "enabled": true, "library": "libGeo.so", "config": {"a": [1, 2.5e3, null, "x\u00e9"]}},
              {"name": "Auth", "enabled": false, "sha256": "\#(String(repeating: "ab", count: 32))", "startTimeout": 2}
            ]}
            """#.utf8)
        let decoder = ModulesFileDecoder(defaultSearchPath: "/usr/lib/modhost")
        #expect((try? decoder.decode(Data(valid), path: "/etc/modules.json")) != nil)
        var generator = SeededGenerator(state: 7)
        let alphabet = Array(#"{}[]":,.-+eE0123456789 \ntrufalsn"#.utf8) + [0, 0xC3, 0xFF]
        var problems = 0
        for _ in 0..<3_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = alphabet.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: index)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            do {
                _ = try decoder.decode(Data(bytes), path: "/etc/modules.json")
            } catch {
                problems += 1
                #expect(!error.problems.isEmpty)
                #expect(error.problems.allSatisfy { !$0.contains("\n") }, "one line per problem: \(error.problems)")
            }
        }
        #expect(problems > 1_000, "most mutations break the file and are reported")
    }
}
