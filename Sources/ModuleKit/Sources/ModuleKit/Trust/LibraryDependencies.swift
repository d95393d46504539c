import Glibc

/// The libraries an ELF shared object names in its dynamic section (`DT_NEEDED`) and its run
/// paths (`DT_RUNPATH`, `DT_RPATH`), read from its open file with `pread`: the section
/// headers, the dynamic section and only the strings it points at, each bounded by the file's
/// size. Nothing in the file is trusted.
struct LibraryDependencies {
    /// The names the library needs, in order.
    let needed: [String]
    /// Its run paths as written, each a `:`-separated list.
    let runPaths: [String]

    /// The dependencies of `fd`'s library, `size` bytes long (from the caller's `fstat`); none
    /// when it has no dynamic section.
    ///
    /// - Throws: a short English reason when the file is not a 64-bit ELF file one can read.
    init(fileDescriptor fd: Int32, size: Int64) throws(LibraryError) {
        let (needed, runPaths) = try Self.read(fileDescriptor: fd, fileSize: size)
        self.needed = needed
        self.runPaths = runPaths
    }

    private static func read(fileDescriptor fd: Int32, fileSize: Int64) throws(LibraryError) -> (needed: [String], runPaths: [String]) {
        guard fileSize >= 0 else { throw .malformed("cannot be examined") }
        let size = UInt64(fileSize)
        // Elf64_Ehdr: e_shoff at 40, e_shentsize at 58, e_shnum at 60.
        let header = try read(fd, count: 64, at: 0, fileSize: size)
        guard header.starts(with: [0x7f, 0x45, 0x4c, 0x46]), header[4] == 2, header[5] == 1 else {
            throw .malformed("is not a 64-bit little-endian ELF file")
        }
        let sectionsAt = integer(header, 40, 8)
        let entrySize = integer(header, 58, 2)
        let count = integer(header, 60, 2)
        guard entrySize == 64, count > 0, count <= 65_535 else { throw .malformed("has no readable section headers") }
        let table = try read(fd, count: Int(count) * 64, at: sectionsAt, fileSize: size)
        // Elf64_Shdr: sh_type at 4, sh_offset at 24, sh_size at 32, sh_link at 40.
        func section(_ index: Int) -> (type: UInt64, offset: UInt64, size: UInt64, link: UInt64) {
            let base = index * 64
            return (integer(table, base + 4, 4), integer(table, base + 24, 8), integer(table, base + 32, 8), integer(table, base + 40, 4))
        }
        guard let dynamic = (0..<Int(count)).map(section).first(where: { $0.type == UInt64(SHT_DYNAMIC) }) else { return ([], []) }
        guard dynamic.link < count, dynamic.size <= 1 << 20 else { throw .malformed("has a malformed dynamic section") }
        let strings = section(Int(dynamic.link))
        let entries = try read(fd, count: Int(dynamic.size), at: dynamic.offset, fileSize: size)
        // Elf64_Dyn: d_tag, d_val, 8 bytes each; DT_NULL ends the list.
        var offsets: [UInt64] = []
        var isNeeded: [Bool] = []
        for base in stride(from: 0, to: entries.count - 15, by: 16) {
            let tag = integer(entries, base, 8)
            if tag == UInt64(DT_NULL) { break }
            guard tag == UInt64(DT_NEEDED) || tag == UInt64(DT_RUNPATH) || tag == UInt64(DT_RPATH) else { continue }
            let offset = integer(entries, base + 8, 8)
            guard offset < strings.size else { throw .malformed("names a needed library outside its string table") }
            offsets.append(offset)
            isNeeded.append(tag == UInt64(DT_NEEDED))
        }
        guard !offsets.isEmpty else { return ([], []) }
        guard strings.offset <= size else { throw .malformed("has a string table outside the file (truncated?)") }
        // The names lie in a few clusters of the table (the needed names together, a run path
        // often far after them): one read per cluster, each name at most 256 bytes, bounded
        // by the table and the file. Every figure comes from the file, so each step is
        // checked before it is added.
        var texts = [String](repeating: "", count: offsets.count)
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var next = 0
        while next < order.count {
            let first = offsets[order[next]]
            var last = first
            var end = next + 1
            while end < order.count, offsets[order[end]] - last <= 1_024 {
                last = offsets[order[end]]
                end += 1
            }
            guard first <= size - strings.offset else { throw .malformed("has a string table outside the file (truncated?)") }
            let span = min(last - first + 256, strings.size - first, size - strings.offset - first)
            let bytes = try read(fd, count: Int(span), at: strings.offset + first, fileSize: size)
            for position in next..<end {
                let index = order[position]
                let start = Int(offsets[index] - first)
                if start < bytes.count, let stop = bytes[start...].firstIndex(of: 0) {
                    texts[index] = String(decoding: bytes[start..<stop], as: UTF8.self)
                } else {
                    // Longer than the cluster's read (a long run path): read on to its end.
                    texts[index] = try longName(fd, at: offsets[index], strings: strings, fileSize: size)
                }
            }
            next = end
        }
        var needed: [String] = []
        var runPaths: [String] = []
        for (index, text) in texts.enumerated() {
            if isNeeded[index] { needed.append(text) } else { runPaths.append(text) }
        }
        return (needed, runPaths)
    }

    /// The name at `offset` in the string table, read up to its NUL (at most 64 KiB, bounded
    /// by the table and the file).
    private static func longName(
        _ fd: Int32, at offset: UInt64, strings: (type: UInt64, offset: UInt64, size: UInt64, link: UInt64), fileSize size: UInt64
    ) throws(LibraryError) -> String {
        guard strings.offset <= size, offset <= size - strings.offset else {
            throw .malformed("has a string table outside the file (truncated?)")
        }
        let span = min(65_536, strings.size - offset, size - strings.offset - offset)
        let bytes = try read(fd, count: Int(span), at: strings.offset + offset, fileSize: size)
        guard let stop = bytes.firstIndex(of: 0) else { throw .malformed("names a needed library or a run path without an end") }
        return String(decoding: bytes[..<stop], as: UTF8.self)
    }

    private static func read(_ fd: Int32, count: Int, at offset: UInt64, fileSize: UInt64) throws(LibraryError) -> [UInt8] {
        guard offset <= fileSize, UInt64(count) <= fileSize - offset else { throw .malformed("ends before its ELF tables (truncated?)") }
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
