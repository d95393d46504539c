import Foundation
@_spi(Host) import ModuleKit
import TestSupport
import Testing

@testable import HostModel

/// The host's own ELF reader (`elf_section.c`) on a real module library with one field
/// changed at a time: each lie the file can tell gets its own answer, and nothing is read
/// outside the file.
@Suite struct ELFSectionReaderTests {
    /// A real module library's bytes, and where its fields are.
    struct Library {
        var bytes: [UInt8]

        init() throws {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: TestEnvironment.library("FixtureProvider"))))
        }

        func integer(at offset: Int, size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }

        mutating func set(_ value: Int, at offset: Int, size: Int) {
            for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }

        var sectionHeaders: Int { integer(at: 0x28, size: 8) }
        var sectionCount: Int { integer(at: 0x3C, size: 2) }
        var namesIndex: Int { integer(at: 0x3E, size: 2) }
        func header(_ index: Int) -> Int { sectionHeaders + 64 * index }

        /// The index of the section called `name`.
        func section(named name: String) -> Int? {
            let names = integer(at: header(namesIndex) + 24, size: 8)
            return (1..<sectionCount).first { index in
                let start = names + integer(at: header(index), size: 4)
                let end = bytes[start...].firstIndex(of: 0) ?? start
                return String(decoding: bytes[start..<end], as: UTF8.self) == name
            }
        }
    }

    func read(_ library: Library) throws -> Result<ModuleDescriptor, DescriptorError> {
        let folder = try TestEnvironment.temporaryFolder()
        chmod(folder, 0o700)
        let path = folder + "/lib.so"
        try Data(library.bytes).write(to: URL(fileURLWithPath: path))
        let file = try TrustedFile(path: path, maximumSize: 64 << 20)
        return Result { () throws(DescriptorError) in try DescriptorReader.read(fileDescriptor: file.descriptor) }
    }

    func refusal(_ change: (inout Library) -> Void) throws -> String {
        var library = try Library()
        change(&library)
        switch try read(library) {
        case .success(let descriptor): return "read \(descriptor.name)"
        case .failure(.notELF(let what)): return "notELF: " + what
        case .failure(.malformed(let what)): return "malformed: " + what
        case .failure(let other): return "\(other)"
        }
    }

    @Test func theUnchangedLibraryReads() throws {
        guard case .success(let descriptor) = try read(try Library()) else {
            Issue.record("the fixture's descriptor must read")
            return
        }
        #expect(descriptor.name == "FixtureProvider")
    }

    @Test func aLibraryForAnotherMachineIsNamedAsSuch() throws {
        #expect(try refusal { $0.bytes[4] = 1 } == "notELF: is a 32-bit ELF file; this host loads 64-bit libraries")
        #expect(try refusal { $0.bytes[5] = 2 } == "notELF: is a big-endian ELF file; this host loads little-endian libraries")
        // RISC-V (243): neither of the machines the host builds for.
        #expect(try refusal { $0.set(243, at: 18, size: 2) } == "notELF: is a shared library for another processor than this machine's")
        #expect(try refusal { $0.set(2, at: 16, size: 2) } == "notELF: is an ELF file but not a shared library")
        #expect(try refusal { $0.bytes = Array($0.bytes.prefix(40)) } == "notELF: has a damaged ELF header (the file ends inside it)")
        #expect(try refusal { $0.bytes = Array("\u{7F}ELX".utf8) + $0.bytes.dropFirst(4) } == "notELF: is not an ELF file")
    }

    @Test func sectionHeadersThatLieAreRefused() throws {
        #expect(try refusal { $0.set(0, at: 0x28, size: 8) } == "notELF: has no section headers")
        #expect(
            try refusal { $0.set($0.bytes.count - 32, at: 0x28, size: 8) } == "notELF: has section headers outside the file (truncated?)")
        #expect(try refusal { $0.set(0xFFFF, at: 0x3C, size: 2) } == "notELF: has section headers outside the file (truncated?)")
        #expect(try refusal { $0.set(32, at: 0x3A, size: 2) } == "notELF: has section headers of an unexpected size")
        #expect(try refusal { $0.set($0.sectionCount + 3, at: 0x3E, size: 2) } == "notELF: has no section names")
        // The names' table said to be a code section, or to lie past the file's end.
        #expect(try refusal { lib in lib.set(1, at: lib.header(lib.namesIndex) + 4, size: 4) } == "notELF: has no section names")
        #expect(
            try refusal { lib in lib.set(lib.bytes.count, at: lib.header(lib.namesIndex) + 24, size: 8) } == "notELF: has no section names")
        // A truncated file: the section headers (at the end) are gone.
        #expect(
            try refusal { lib in lib.bytes = Array(lib.bytes.prefix(lib.sectionHeaders + 10)) }
                == "notELF: has section headers outside the file (truncated?)")
    }

    @Test func theDescriptorSectionMustLieInTheFile() throws {
        let library = try Library()
        let index = try #require(library.section(named: DescriptorReader.sectionName))
        #expect(
            try refusal { $0.set($0.bytes.count - 4, at: $0.header(index) + 24, size: 8) }
                == "malformed: lies outside the file (truncated?)")
        // SHT_NOBITS: a section that takes no room in the file.
        #expect(try refusal { $0.set(8, at: $0.header(index) + 4, size: 4) } == "malformed: is not a section of data stored in the file")
        #expect(try refusal { $0.set(1 << 20, at: $0.header(index) + 32, size: 8) }.hasPrefix("malformed: is 1048576 bytes, more than"))
        // A name offset past the names' table is no name: the section is not found.
        #expect(try refusal { $0.set(0x7FFF_FFFF, at: $0.header(index), size: 4) }.hasPrefix("missing"))
    }

    /// The names' table and the kit's sections are each read in one piece with what lies near
    /// them; a file that keeps them apart is read part by part, to the same descriptor.
    @Test func partsKeptApartReadTheSame() throws {
        guard case .success(let whole) = try read(try Library()) else {
            Issue.record("the fixture's descriptor must read")
            return
        }
        #expect(whole.commands != nil)
        // The names' table copied past 64 KiB of padding after the section headers.
        var apart = try Library()
        let table = apart.header(apart.namesIndex)
        let (offset, size) = (apart.integer(at: table + 24, size: 8), apart.integer(at: table + 32, size: 8))
        let names = Array(apart.bytes[offset..<offset + size])
        apart.bytes += [UInt8](repeating: 0, count: 65_536)
        apart.set(apart.bytes.count, at: table + 24, size: 8)
        apart.bytes += names
        // The commands section likewise, 64 KiB further: the kit's sections no longer lie together.
        let commands = try #require(apart.section(named: DescriptorReader.commandsSectionName))
        let start = apart.integer(at: apart.header(commands) + 24, size: 8)
        let length = apart.integer(at: apart.header(commands) + 32, size: 8)
        let section = Array(apart.bytes[start..<start + length])
        apart.bytes += [UInt8](repeating: 0, count: 65_536)
        apart.set(apart.bytes.count, at: apart.header(commands) + 24, size: 8)
        apart.bytes += section
        #expect(try read(apart) == .success(whole))
    }

    /// Over 65279 sections, the count and the names' index move to section 0 (ELF's extended
    /// numbering); the reader follows them there.
    @Test func extendedSectionNumberingIsFollowed() throws {
        let read = try refusal { lib in
            let count = lib.sectionCount
            let names = lib.namesIndex
            lib.set(count, at: lib.header(0) + 32, size: 8)
            lib.set(names, at: lib.header(0) + 40, size: 4)
            lib.set(0, at: 0x3C, size: 2)
            lib.set(0xFFFF, at: 0x3E, size: 2)
        }
        #expect(read == "read FixtureProvider")
    }
}
