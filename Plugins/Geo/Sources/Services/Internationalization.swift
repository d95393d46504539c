import Glibc

/// Foundation's internationalization (ICU), opened on Geo's first need for a country's name.
///
/// Geo links only FoundationEssentials: the whole of Foundation and ICU cost every start about
/// 2 ms to link, and Geo needs them only when it names a country. FoundationEssentials' `Locale`
/// answers with ICU once `libFoundationInternationalization.so` is loaded, for each locale it
/// makes after that — so the catalog opens it before it makes its first `Locale`. The library
/// is the one beside the loaded `libFoundationEssentials.so` (the same toolchain), by path.
enum Internationalization {
    /// Whether it is loaded; false (names fall back to codes) when it cannot be.
    static let isLoaded: Bool = {
        // Read again when missed: `/proc/self/maps` read while another thread maps or unmaps
        // memory may skip lines.
        guard let folder = essentialsFolder() ?? essentialsFolder() ?? essentialsFolder() else { return false }
        return dlopen(folder + "/libFoundationInternationalization.so", RTLD_NOW | RTLD_GLOBAL) != nil
    }()

    /// The folder of the loaded `libFoundationEssentials.so`, from `/proc/self/maps` (read line
    /// by line: a file of `/proc` has no size, and `String(contentsOfFile:)` reads its first 4 KiB).
    private static func essentialsFolder() -> String? {
        guard let maps = fopen("/proc/self/maps", "re") else { return nil }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        let name = "/libFoundationEssentials.so"
        while getline(&line, &capacity, maps) > 0, let line {
            let text = String(cString: line).split(separator: "\n").first ?? ""
            guard text.hasSuffix(name), let start = text.firstIndex(of: "/") else { continue }
            return String(text[start...].dropLast(name.count))
        }
        return nil
    }
}
