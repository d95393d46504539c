@_spi(_Unicode) import Swift

/// One answer a question offers from a long list (a country, a city): shown under the question
/// in full screen and filtered as the person types; the line mode asks as before.
///
/// - Since: SDK 1.3.0.
public struct Suggestion: Sendable, Equatable {
    /// What the list shows (`Italy (IT)`).
    public let title: String
    /// What the question answers when it is chosen (`IT`).
    public let value: String
    /// Other words it is found by: its code, its names in other languages.
    public let terms: [String]

    /// The title and the terms, then the value, folded once (``fold(_:)``): a list is filtered
    /// anew at every key typed.
    private let folded: [String]

    public init(_ title: String, value: String? = nil, terms: [String] = []) {
        self.title = title
        self.value = value ?? title
        self.terms = terms
        folded = ([title] + terms + [value ?? title]).map(Self.fold)
    }

    public static func == (left: Suggestion, right: Suggestion) -> Bool {
        left.title == right.title && left.value == right.value && left.terms == right.terms
    }

    /// How well `query` finds this suggestion, fzf-style, ignoring case and accents: `nil`
    /// when it does not; lower is better (the start of the title, then the start of a word or
    /// a term, then anywhere, then its letters in order).
    func rank(_ query: String) -> Int? { rank(folded: Self.fold(query)) }

    /// ``rank(_:)`` of a query folded already.
    private func rank(folded wanted: String) -> Int? {
        guard !wanted.isEmpty else { return 0 }
        var best: Int?
        for (index, text) in folded.dropLast().enumerated() {
            let penalty = index == 0 ? 0 : 1
            let score: Int?
            if text.hasPrefix(wanted) {
                score = 0
            } else if text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).contains(where: { $0.hasPrefix(wanted) }) {
                score = 2
            } else if text.contains(wanted) {
                score = 4
            } else if Self.isSubsequence(wanted, of: text) {
                score = 6
            } else {
                score = nil
            }
            if let score { best = min(best ?? .max, score + penalty) }
        }
        return best
    }

    /// Lowercased, accents removed (`Österreich` → `osterreich`), exactly as Foundation's
    /// `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` has it (a test
    /// holds every country name of every shipped language to it): the combining marks of the
    /// canonical decomposition (NFD) go where their letter is below U+0510 (Latin, Greek,
    /// Cyrillic; Hebrew points and Indic signs stay), then full case folding (`ß` → `ss`,
    /// final `ς` → `σ`).
    static func fold(_ text: String) -> String {
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

    private static func isSubsequence(_ wanted: String, of text: String) -> Bool {
        var remaining = wanted[...]
        for character in text where character == remaining.first {
            remaining = remaining.dropFirst()
            if remaining.isEmpty { return true }
        }
        return remaining.isEmpty
    }

    /// Whether `query` is this suggestion exactly: its value, its title or one of its terms,
    /// ignoring case and accents (`es` is Spain's code, whatever else it begins).
    func isExact(_ query: String) -> Bool { exactness(query) != nil }

    /// How exactly `query` names this suggestion: 0 its value (what the line mode takes first,
    /// a code), 1 its title or a term, `nil` not exactly.
    private func exactness(_ query: String) -> Int? { exactness(folded: Self.fold(query.trimmedOfSpaces())) }

    private func exactness(folded wanted: String) -> Int? {
        guard !wanted.isEmpty else { return nil }
        if folded.last == wanted { return 0 }
        return folded.dropLast().contains(wanted) ? 1 : nil
    }

    /// The suggestions `query` finds, best first (ties in the given order): the exact ones
    /// before any other, one whose value it is first of all.
    static func filter(_ suggestions: [Suggestion], by query: String) -> [Suggestion] {
        let wanted = fold(query)
        let exact = fold(query.trimmedOfSpaces())
        return suggestions.enumerated().compactMap { entry in
            entry.element.rank(folded: wanted).map { rank in
                (entry.offset, entry.element.exactness(folded: exact).map { $0 - 2 } ?? rank, entry.element)
            }
        }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.2)
    }
}
