import Glibc

/// The libraries an ELF shared object names in its dynamic section (`DT_NEEDED`) and its run
/// paths (`DT_RUNPATH`, `DT_RPATH`), read from its open file with `pread` as the dynamic linker
/// reads them: through the program headers, never the section headers.
///
/// The dynamic linker finds the dynamic section by `PT_DYNAMIC` and its strings by `DT_STRTAB`,
/// both addresses in the image its `PT_LOAD` segments map; section headers it never reads. A
/// file whose section headers point at another, harmless dynamic section would otherwise have
/// its real dependencies and run paths go unchecked. So each address is turned into a file
/// offset through the segment that maps it, and one that no segment maps from the file is
/// refused, as is a file whose segments share a page (where the linker's mapping of one
/// would replace bytes of another) or that has other than one dynamic segment.
///
/// Usually two reads: the file's first 8 KiB (the ELF header, the program headers and, in most
/// libraries, the needed names) and the dynamic section. Nothing in the file is trusted: every
/// figure is checked against the file's size before it is used.
struct LibraryDependencies {
    /// The names the library needs, in order.
    let needed: [String]
    /// Its run paths as written, each a `:`-separated list.
    let runPaths: [String]

    /// The dependencies of `fd`'s library, `size` bytes long (from the caller's `fstat`); none
    /// when it has no dynamic segment.
    ///
    /// - Throws: a short English reason when the file is not a 64-bit ELF file one can read.
    init(fileDescriptor fd: Int32, size: Int64) throws(LibraryError) {
        guard size >= 0 else { throw .malformed("cannot be examined") }
        var file = ELFFile(fd: fd, size: UInt64(size))
        try file.readHead()
        (needed, runPaths) = try file.dependencies()
    }
}

/// One open ELF file, read lazily: its first bytes held, the rest read where asked.
private struct ELFFile {
    let fd: Int32
    let size: UInt64
    /// The file's first bytes (at most ``headSize``).
    private var head: [UInt8] = []
    private var segments: [(offset: UInt64, address: UInt64, length: UInt64)] = []

    static let headSize: UInt64 = 8_192
    /// The most of a dynamic section read, and the longest name.
    static let maximumDynamic: UInt64 = 1 << 20
    static let maximumName: UInt64 = 65_536

    init(fd: Int32, size: UInt64) {
        self.fd = fd
        self.size = size
    }

    mutating func readHead() throws(LibraryError) {
        head = try read(count: min(size, Self.headSize), at: 0)
        // Elf64_Ehdr: e_ident, then e_phoff at 32, e_phentsize at 54, e_phnum at 56.
        guard head.count >= 64, head.starts(with: [0x7f, 0x45, 0x4c, 0x46]), head[4] == 2, head[5] == 1 else {
            throw .malformed("is not a 64-bit little-endian ELF file")
        }
    }

    /// `DT_NEEDED` names and run paths, in the dynamic section's order.
    mutating func dependencies() throws(LibraryError) -> (needed: [String], runPaths: [String]) {
        let tableAt = Self.integer(head, 32, 8)
        let entrySize = Self.integer(head, 54, 2)
        let count = Self.integer(head, 56, 2)
        // 0xffff (PN_XNUM) would put the count in a section header, which the linker does not read.
        guard entrySize == 56, count > 0, count < 0xffff else { throw .malformed("has no readable program headers") }
        let table = try bytes(count: count * 56, at: tableAt)
        // Elf64_Phdr: p_type at 0, p_offset at 8, p_vaddr at 16, p_filesz at 32, p_memsz at 40.
        // The linker maps whole pages, in order: segments that share a page, or come out of
        // order, would have one replace bytes of another, so a file offset here would not be
        // what the linker reads at that address. Such a file is refused.
        let page = UInt64(max(4_096, sysconf(Int32(_SC_PAGESIZE))))
        var dynamic: (address: UInt64, length: UInt64)?
        var dynamicSegments = 0
        var mappedUpTo: UInt64 = 0
        for base in stride(from: 0, to: table.count, by: 56) {
            let type = Self.integer(table, base, 4)
            let (offset, address) = (Self.integer(table, base + 8, 8), Self.integer(table, base + 16, 8))
            let (length, inMemory) = (Self.integer(table, base + 32, 8), Self.integer(table, base + 40, 8))
            if type == UInt64(PT_LOAD) {
                // User space ends below 2^47 on x86_64 (2^48 elsewhere): larger figures are not an
                // image's, and keep the sums below from overflowing.
                guard offset <= size, length <= size - offset, length <= inMemory, address < 1 << 48, inMemory < 1 << 48 else {
                    throw .malformed("maps a segment from outside the file (truncated?)")
                }
                guard address % page == offset % page, segments.isEmpty || address / page * page >= mappedUpTo else {
                    throw .malformed("maps its segments over one another or out of order")
                }
                mappedUpTo = (address + inMemory + page - 1) / page * page
                segments.append((offset, address, length))
            } else if type == UInt64(PT_DYNAMIC) {
                dynamic = (address, length)
                dynamicSegments += 1
            }
        }
        guard let dynamic else { return ([], []) }
        // Linkers disagree on which of two counts, and on one that is empty: refused.
        guard dynamicSegments == 1, dynamic.length >= 16 else { throw .malformed("has a malformed dynamic section") }
        // The linker reads entries up to DT_NULL whatever the segment's size says: read up to
        // the end of what the segment that holds it maps from the file.
        let (dynamicAt, mapped) = try segmentOffset(of: dynamic.address)
        let entries = try bytes(count: min(mapped, Self.maximumDynamic), at: dynamicAt)
        // Elf64_Dyn: d_tag, d_val, 8 bytes each; DT_NULL ends the list. Of two DT_STRTAB or
        // DT_STRSZ entries the linker keeps the last.
        var names: [(offset: UInt64, isNeeded: Bool)] = []
        var strings: UInt64?
        var stringsSize: UInt64?
        var ended = false
        for base in stride(from: 0, to: entries.count - 15, by: 16) {
            let (tag, value) = (Self.integer(entries, base, 8), Self.integer(entries, base + 8, 8))
            if tag == UInt64(DT_NULL) {
                ended = true
                break
            }
            switch tag {
            case UInt64(DT_NEEDED): names.append((value, true))
            case UInt64(DT_RUNPATH), UInt64(DT_RPATH): names.append((value, false))
            case UInt64(DT_STRTAB): strings = value
            case UInt64(DT_STRSZ): stringsSize = value
            default: continue
            }
        }
        guard ended else { throw .malformed("has a dynamic section without an end") }
        guard !names.isEmpty else { return ([], []) }
        guard let strings, let stringsSize else { throw .malformed("names libraries but has no string table") }
        var needed: [String] = []
        var runPaths: [String] = []
        for name in names {
            guard name.offset < stringsSize, strings <= UInt64.max - name.offset else {
                throw .malformed("names a needed library outside its string table")
            }
        }
        let together = try namesTogether(names.map(\.offset), strings: strings, stringsSize: stringsSize)
        for (index, name) in names.enumerated() {
            let text: String
            if let read = together[index] {
                text = read
            } else {
                text = try string(at: strings + name.offset, within: stringsSize - name.offset)
            }
            if name.isNeeded { needed.append(text) } else { runPaths.append(text) }
        }
        return (needed, runPaths)
    }

    /// The names at `offsets` in the string table, read with one `pread` when they lie near
    /// each other in one segment (a linker writes them together; a library needs about twenty,
    /// a read each otherwise); `nil` for a name that does not end in that read.
    private func namesTogether(_ offsets: [UInt64], strings: UInt64, stringsSize: UInt64) throws(LibraryError) -> [String?] {
        guard let low = offsets.min(), let high = offsets.max(), high - low < 65_536 else { return offsets.map { _ in nil } }
        let (start, mapped) = try segmentOffset(of: strings + low)
        let span = min(high - low + 256, mapped, stringsSize - low)
        guard high - low < span else { return offsets.map { _ in nil } }
        let block = try bytes(count: span, at: start)
        return offsets.map { offset in
            let from = Int(offset - low)
            // A name no longer than one read alone takes: a longer one is read (and refused) alone.
            guard let end = block[from...].firstIndex(of: 0), end - from < Int(Self.maximumName) else { return nil }
            // Not UTF-8: left to the read alone, which refuses it.
            return String(validating: block[from..<end], as: UTF8.self)
        }
    }

    /// The NUL-terminated text at image address `address`, at most `limit` bytes long.
    private func string(at address: UInt64, within limit: UInt64) throws(LibraryError) -> String {
        let (offset, mapped) = try segmentOffset(of: address)
        let span = min(limit, mapped, Self.maximumName)
        // Most names end within 256 bytes: a short read first, the rest only for a long run path.
        var bytes = try bytes(count: min(span, 256), at: offset)
        if !bytes.contains(0), span > 256 { bytes = try self.bytes(count: span, at: offset) }
        guard let end = bytes.firstIndex(of: 0) else { throw .malformed("names a needed library or a run path without an end") }
        // A name that is not UTF-8 could not be looked up beside the library as the linker looks
        // it up (by its bytes): refused, not repaired.
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else {
            throw .malformed("names a needed library or a run path that is not UTF-8")
        }
        return text
    }

    /// The file offset of image address `address`, and how many bytes from there its segment
    /// maps from the file (segments share no page: at most one holds it).
    private func segmentOffset(of address: UInt64) throws(LibraryError) -> (offset: UInt64, mapped: UInt64) {
        guard let segment = segments.last(where: { address >= $0.address && address - $0.address < $0.length }) else {
            throw .malformed("points at an address that no segment maps from the file")
        }
        return (segment.offset + (address - segment.address), segment.length - (address - segment.address))
    }

    /// `count` bytes at `offset`: from the head when it holds them, else read.
    private func bytes(count: UInt64, at offset: UInt64) throws(LibraryError) -> [UInt8] {
        guard offset <= size, count <= size - offset else { throw .malformed("ends before its ELF tables (truncated?)") }
        if offset + count <= UInt64(head.count) { return Array(head[Int(offset)..<Int(offset + count)]) }
        return try read(count: count, at: offset)
    }

    private func read(count: UInt64, at offset: UInt64) throws(LibraryError) -> [UInt8] {
        let count = Int(count)
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while filled < count {
                let got = pread(fd, buffer.baseAddress.map { $0 + filled }, count - filled, off_t(offset) + off_t(filled))
                if got < 0 && errno == EINTR { continue }
                if got <= 0 {
                    failed = true
                    return
                }
                filled += got
            }
        }
        if failed { throw .malformed("cannot be read") }
        return bytes
    }

    private static func integer(_ bytes: [UInt8], _ at: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<width).reversed() { value = value << 8 | UInt64(bytes[at + index]) }
        return value
    }
}
