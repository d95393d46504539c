import CLibraryFile
import Glibc
import ModuleKit

/// Reads the kit's ELF sections — a module's descriptor, a contracts library's version — from an
/// open library file (by the host's own bounded ELF reader, CHostGuard's `elf_section.c`),
/// without loading the library.
///
/// The reader trusts nothing in the file: the section's size is checked against the file's and
/// the section's limit before a byte is copied, and every field is then validated.
package enum DescriptorReader {
    package static let sectionName = ".modhost_descriptor"
    static let contractsSectionName = ".modhost_contracts"

    static let commandsSectionName = ".modhost_commands"
    static let capabilitiesSectionName = ".modhost_capabilities"

    /// Reads the descriptor of the ELF file open at `fd` (any position; it is not moved), with
    /// the commands its manifest declares when the library records them. `size` is the file's
    /// size when the caller has it from its own `fstat` (a ``TrustedFile``'s identity).
    package static func read(fileDescriptor fd: Int32, size: Int64? = nil) throws(DescriptorError) -> ModuleDescriptor {
        // The section headers and their names read once for both sections.
        let library = try SectionIndex(fd, size: size)
        var descriptor = try ModuleDescriptor(section: try library.section(sectionName))
        // Only for completion and the manual: a library without them (built before SDK 1.6.0)
        // or with a broken list loads as before.
        // A manifest with no 'command' line declares nothing (not "no commands").
        let declared = try? DeclaredCommand.list(section: try library.section(commandsSectionName))
        descriptor.commands = declared?.isEmpty == false ? declared : nil
        // What its sandbox lets it reach: none without the section; a broken one is refused
        // (its sandbox cannot be made from what it does not say clearly).
        do {
            descriptor.capabilities = try ModuleCapabilities(section: try library.section(capabilitiesSectionName))
        } catch .missing {
        } catch .malformed(let why) {
            throw .malformed("'\(capabilitiesSectionName)' \(why)")
        } catch {
            throw error
        }
        return descriptor
    }

    /// Reads the version a contracts library records (`nil` when it records none: its target
    /// does not apply the kit's ContractsVersionPlugin).
    package static func readContractsVersion(fileDescriptor fd: Int32, size: Int64? = nil) throws(DescriptorError)
        -> ContractsVersion?
    {
        do {
            return try ContractsVersion(section: try SectionIndex(fd, size: size).section(contractsSectionName))
        } catch .missing {
            return nil
        }
    }

    /// The section headers of one open library (`elf_section.c`), closed with it.
    private final class SectionIndex {
        private var index = modhost_elf_sections()

        init(_ fd: Int32, size: Int64?) throws(DescriptorError) {
            var fileSize = size ?? -1
            if size == nil {
                var status = stat()
                guard fstat(fd, &status) == 0 else { throw .notELF("cannot be examined") }
                fileSize = Int64(status.st_size)
            }
            guard fileSize >= 0 else { throw .notELF("cannot be examined") }
            var error = [CChar](repeating: 0, count: 256)
            let outcome = Int(modhost_elf_sections_open(fd, UInt64(fileSize), &index, &error, error.count))
            guard outcome == MODHOST_SECTION_FOUND else { throw DescriptorReader.failure(outcome, size: 0, error) }
        }

        deinit { modhost_elf_sections_close(&index) }

        func section(_ name: String) throws(DescriptorError) -> [UInt8] {
            var size = 0
            var error = [CChar](repeating: 0, count: 256)
            var failed: DescriptorError?
            let bytes = [UInt8](unsafeUninitializedCapacity: SectionFrame.maximumSize) { buffer, count in
                let outcome = Int(
                    modhost_elf_sections_read(&index, name, buffer.baseAddress, buffer.count, &size, &error, error.count))
                if outcome == MODHOST_SECTION_FOUND {
                    count = size
                } else {
                    failed = DescriptorReader.failure(outcome, size: size, error)
                }
            }
            if let failed { throw failed }
            return bytes
        }
    }

    private static func failure(_ outcome: Int, size: Int, _ error: [CChar]) -> DescriptorError {
        let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch outcome {
        case MODHOST_SECTION_MISSING: return .missing
        case MODHOST_SECTION_TOO_LARGE:
            return .malformed("is \(size) bytes, more than the \(SectionFrame.maximumSize) a section may have")
        case MODHOST_SECTION_MALFORMED: return .malformed(message)
        default: return .notELF(message)
        }
    }
}

extension ContractsVersion {
    /// Parses a contracts section (`MODHOST_CONTRACTS_SECTION`): "name=…", "version=…" and "compiler=…".
    init(section bytes: [UInt8]) throws(DescriptorError) {
        let (format, lines) = try SectionFrame.parse(bytes, magic: "MHCT", formats: 1...2)
        guard format == 2 else {
            throw .malformed(
                "records a fingerprint (format 1, from a kit before SDK 1.0.0), not a version; rebuild it with this kit's ContractsVersionPlugin"
            )
        }
        guard lines.count == 3, lines[0].hasPrefix("name="), lines[1].hasPrefix("version="), lines[2].hasPrefix("compiler=") else {
            throw .malformed("has \(lines.count) fields, expected 'name=', 'version=' and 'compiler='")
        }
        let name = String(lines[0].dropFirst(5))
        let version = String(lines[1].dropFirst(8))
        let compiler = String(lines[2].dropFirst(9))
        guard ModuleDescriptor.isIdentifier(name) else { throw .malformed("has name '\(Escaped(name))', not an identifier") }
        guard SDKVersion(version) != nil else { throw .malformed("has version '\(Escaped(version))', not MAJOR.MINOR.PATCH") }
        guard ModuleDescriptor.isCompiler(compiler) else {
            throw .malformed("has compiler '\(Escaped(String(compiler.prefix(80))))', not one line of printable ASCII")
        }
        self.init(name: name, version: version, compiler: compiler)
    }
}
