import FoundationEssentials
import ModuleKit
@_spi(_Unicode) import Swift
import Synchronization

/// The ISO 3166 countries Foundation knows, named in any locale: accepts a code (`FR`) or a
/// name in the current locale or English (`Frankreich`, `France`), and suggests the closest
/// names for a miss.
public final class RegionCatalog: Sendable {
    /// Two-letter codes of real countries (groupings like `EU` and `QO` left out).
    public let codes = RegionCatalog.isoCodes
    private let names = Mutex<[String: [String: String]]>([:])
    static let groupings: Set<String> = ["EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"]

    public init() {}

    /// The codes Foundation lists (`Locale.Region.isoRegions`, without groupings), written
    /// out: asking ICU for them at every start cost more than the rest of Geo's start
    /// (11 % of `modhost modules`, and its region data in memory). `RegionCatalogTests`
    /// holds this list to Foundation's, so a toolchain that changes it is noticed.
    static let isoCodes: [String] = [
        "AC", "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX",
        "AZ", "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR",
        "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM",
        "CN", "CO", "CP", "CQ", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DG", "DJ", "DK", "DM",
        "DO", "DZ", "EA", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR",
        "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT",
        "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "IC", "ID", "IE", "IL", "IM", "IN", "IO",
        "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR",
        "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC",
        "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU",
        "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU",
        "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY",
        "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK",
        "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TA", "TC", "TD", "TF", "TG",
        "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US",
        "UY", "UZ", "VA", "VC", "VE", "VG", "VI", "VN", "VU", "WF", "WS", "XK", "YE", "YT", "ZA", "ZM",
        "ZW",
    ]

    /// The country's name in `locale` (the code itself if Foundation has none).
    public func name(of code: String, locale: String) -> String {
        // Foundation has no pseudo-locale: its English name, marked as translated text.
        if locale == ModuleStrings.pseudoLocale { return ModuleStrings.pseudo(name(of: code, locale: "en")) }
        return table(locale)[code] ?? code
    }

    /// The country `text` names: a code, or a name in `locale`, English or another shipped
    /// language (`Italie` in an English run), ignoring case and accents.
    public func country(matching text: String, locale: String) -> Country? {
        let trimmed = text.trimmingSpaces()
        let upper = trimmed.uppercased()
        if upper.count == 2, codes.contains(upper) { return Country(code: upper, name: name(of: upper, locale: locale)) }
        let key = Self.fold(trimmed)
        // The person's language first: a name two languages give to different countries is
        // theirs.
        let others = ModuleStrings.shippedLocales.filter { $0 != locale && $0 != "en" }
        for table in [table(locale), table("en")] + others.map(table) {
            if let code = table.first(where: { Self.fold($0.value) == key })?.key {
                return Country(code: code, name: name(of: code, locale: locale))
            }
        }
        return nil
    }

    /// Up to three names in `locale` closest to `text`.
    public func suggestions(for text: String, locale: String) -> [String] {
        let key = Self.fold(text)
        guard !key.isEmpty else { return [] }
        // A typo (a few edits away) or the start of a name (at least three letters).
        let scored = table(locale).values.map { name in
            let folded = Self.fold(name)
            return (name, key.count >= 3 && folded.hasPrefix(key) ? 0 : editDistance(key, folded))
        }
        return scored.filter { $0.1 <= max(1, key.count / 3) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }

    /// Lowercased, accents removed: for matching and for the keys Geo stores with each city,
    /// so exactly as Foundation's folding (`folding(options: [.caseInsensitive,
    /// .diacriticInsensitive], locale: nil)`), which made the keys of cities saved before: the
    /// combining marks of the canonical decomposition (NFD) go where their letter is below
    /// U+0510, then full case folding (`ß` → `ss`, final `ς` → `σ`). `RegionCatalogTests` holds
    /// every country name of every shipped language to Foundation's. The kit's suggestion filter
    /// folds the same way with code of its own, on purpose: these keys are stored, and must not
    /// change with the kit.
    public static func fold(_ text: String) -> String {
        var folded = ""
        var base: Unicode.Scalar?
        for scalar in text._nfd {
            if scalar.properties.generalCategory == .nonspacingMark, let base, base.value < 0x510 { continue }
            if scalar.properties.canonicalCombiningClass == .notReordered { base = scalar }
            if let folding = fullCaseFoldings[scalar.value] { folded += folding } else { folded.unicodeScalars.append(scalar) }
        }
        return folded.lowercased()
    }

    /// The case foldings (Unicode's CaseFolding.txt) that lowercasing does not give.
    private static let fullCaseFoldings: [UInt32: String] = [
        0xB5: "\u{3BC}", 0xDF: "ss", 0x149: "\u{2BC}n", 0x17F: "s", 0x345: "\u{3B9}", 0x3C2: "\u{3C3}", 0x3D0: "\u{3B2}", 0x3D1: "\u{3B8}",
        0x3D5: "\u{3C6}", 0x3D6: "\u{3C0}", 0x3F0: "\u{3BA}", 0x3F1: "\u{3C1}", 0x3F5: "\u{3B5}", 0x587: "\u{565}\u{582}",
        0x1E9A: "a\u{2BE}", 0x1E9E: "ss", 0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st",
        0xFB06: "st", 0xFB13: "\u{574}\u{576}", 0xFB14: "\u{574}\u{565}", 0xFB15: "\u{574}\u{56B}", 0xFB16: "\u{57E}\u{576}",
        0xFB17: "\u{574}\u{56D}",
    ]

    /// `items` in the order of their names: by the folded name, then as written (`Ägypten`
    /// among the A's), each name folded once.
    public static func sortedByName<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
        let keyed: [(item: Item, name: String, folded: String)] = items.map { item in (item, name(item), fold(name(item))) }
        return keyed.sorted { $0.folded == $1.folded ? $0.name < $1.name : $0.folded < $1.folded }.map(\.item)
    }

    private func table(_ locale: String) -> [String: String] {
        names.withLock { names in
            if let table = names[locale] { return table }
            _ = Internationalization.isLoaded
            let foundation = Locale(identifier: locale)
            var table: [String: String] = [:]
            for code in codes { table[code] = foundation.localizedString(forRegionCode: code) ?? code }
            names[locale] = table
            return table
        }
    }
}
