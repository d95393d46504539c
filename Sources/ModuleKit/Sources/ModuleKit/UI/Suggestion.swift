import Foundation

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

    public init(_ title: String, value: String? = nil, terms: [String] = []) {
        self.title = title
        self.value = value ?? title
        self.terms = terms
    }

    /// How well `query` finds this suggestion, fzf-style, ignoring case and accents: `nil`
    /// when it does not; lower is better (the start of the title, then the start of a word or
    /// a term, then anywhere, then its letters in order).
    func rank(_ query: String) -> Int? {
        let wanted = Self.fold(query)
        guard !wanted.isEmpty else { return 0 }
        let texts = [title] + terms
        var best: Int?
        for (index, text) in texts.map(Self.fold).enumerated() {
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

    /// Lowercased, accents removed (`Österreich` → `osterreich`).
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func isSubsequence(_ wanted: String, of text: String) -> Bool {
        var remaining = wanted[...]
        for character in text where character == remaining.first {
            remaining = remaining.dropFirst()
            if remaining.isEmpty { return true }
        }
        return remaining.isEmpty
    }

    /// The suggestions `query` finds, best first (ties in the given order).
    static func filter(_ suggestions: [Suggestion], by query: String) -> [Suggestion] {
        suggestions.enumerated().compactMap { entry in entry.element.rank(query).map { (entry.offset, $0, entry.element) } }
            .sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.2)
    }
}
