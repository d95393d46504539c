import CElf
import Glibc

/// Reads a module descriptor from an open library file with libelf, without loading it.
///
/// The reader trusts nothing in the file: the section's size is checked against the file's
/// and the descriptor's limit before a byte is copied, and every field is validated.
enum DescriptorReader {
    static let sectionName = ".modhost_descriptor"

    /// Reads the descriptor of the ELF file open at `descriptor` (any position; it is not moved).
    static func read(fileDescriptor fd: Int32) throws(DescriptorError) -> ModuleDescriptor {
        ModuleDescriptorLibrary.initialize()
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .notELF("cannot be examined: \(String(cString: strerror(errno)))") }
        guard let elf = elf_begin(fd, ELF_C_READ, nil) else { throw .notELF("cannot be read as ELF: \(lastError())") }
        defer { elf_end(elf) }
        guard elf_kind(elf) == ELF_K_ELF else { throw .notELF("is not an ELF file") }
        var header = GElf_Ehdr()
        guard gelf_getehdr(elf, &header) != nil else { throw .notELF("has a damaged ELF header: \(lastError())") }
        guard header.e_type == UInt16(ET_DYN) else { throw .notELF("is an ELF file but not a shared library") }
        var namesIndex = 0
        guard elf_getshdrstrndx(elf, &namesIndex) == 0 else { throw .notELF("has no section names: \(lastError())") }
        var section = elf_nextscn(elf, nil)
        while let current = section {
            defer { section = elf_nextscn(elf, current) }
            var sectionHeader = GElf_Shdr()
            guard gelf_getshdr(current, &sectionHeader) != nil,
                let name = elf_strptr(elf, namesIndex, Int(sectionHeader.sh_name)),
                strcmp(name, sectionName) == 0
            else { continue }
            let size = Int(clamping: sectionHeader.sh_size)
            guard size <= ModuleDescriptor.maximumSize else {
                throw .malformed("is \(sectionHeader.sh_size) bytes, more than the \(ModuleDescriptor.maximumSize) a descriptor may have")
            }
            guard sectionHeader.sh_type == UInt32(SHT_PROGBITS),
                sectionHeader.sh_offset.addingReportingOverflow(sectionHeader.sh_size).partialValue <= UInt64(status.st_size)
            else { throw .malformed("lies outside the file (truncated?)") }
            guard let data = elf_getdata(current, nil), let buffer = data.pointee.d_buf, data.pointee.d_size == size else {
                throw .malformed("cannot be read: \(lastError())")
            }
            return try ModuleDescriptor(section: Array(UnsafeRawBufferPointer(start: buffer, count: size)))
        }
        throw .missing
    }

    private static func lastError() -> String {
        elf_errmsg(-1).map { String(cString: $0) } ?? "unknown libelf error"
    }
}

/// libelf must be told which ELF version the caller speaks, once per process.
private enum ModuleDescriptorLibrary {
    static let initialized: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)
    static func initialize() { _ = initialized }
}
