import CHostGuard
import Glibc

/// Reads a module descriptor from an open library file with the system's libelf, without
/// loading the library.
///
/// The reader trusts nothing in the file: the section's size is checked against the file's and
/// the descriptor's limit before a byte is copied, and every field is then validated.
enum DescriptorReader {
    static let sectionName = ".modhost_descriptor"

    /// Reads the descriptor of the ELF file open at `fd` (any position; it is not moved).
    static func read(fileDescriptor fd: Int32) throws(DescriptorError) -> ModuleDescriptor {
        var buffer = [UInt8](repeating: 0, count: ModuleDescriptor.maximumSize)
        var size = 0
        var error = [CChar](repeating: 0, count: 256)
        let outcome = Int(modhost_read_elf_section(fd, sectionName, &buffer, buffer.count, &size, &error, error.count))
        let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch outcome {
        case MODHOST_SECTION_FOUND: return try ModuleDescriptor(section: Array(buffer.prefix(size)))
        case MODHOST_SECTION_MISSING: throw .missing
        case MODHOST_SECTION_TOO_LARGE:
            throw .malformed("is \(size) bytes, more than the \(ModuleDescriptor.maximumSize) a descriptor may have")
        case MODHOST_SECTION_MALFORMED: throw .malformed(message)
        default: throw .notELF(message)
        }
    }
}
