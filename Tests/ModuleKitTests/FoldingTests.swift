import Foundation
import Testing

@testable import ModuleKit

/// The suggestion filter folds case and accents with the standard library alone, exactly as
/// Foundation's folding did: every country name of every shipped language, as written, in
/// capitals and in small letters, and names that lowercasing alone gets wrong.
@Suite struct FoldingTests {
    static let tricky = [
        "ΚΥΠΡΟΣ", "Κύπρος", "Gießen", "GIESSEN", "Straße", "ΒΌΛΟΣ", "Βόλος", "São Paulo", "Łódź", "İstanbul", "Ærøskøbing", "Þórshöfn",
        "ΆΘΉΝΑ", "ガ", "שָׁלוֹם", "नमस्ते", "Hà Nội", "Ōsaka", "ﬁnal", "µ-Lyon", "e\u{301}", "", "  ",
    ]

    @Test func everyCountryNameFoldsAsFoundationFoldsIt() {
        for language in ["en", "es", "fr", "de", "it", "el"] {
            let locale = Locale(identifier: language)
            for region in Locale.Region.isoRegions {
                guard let name = locale.localizedString(forRegionCode: region.identifier) else { continue }
                for text in [name, name.uppercased(), name.lowercased()] {
                    #expect(Suggestion.fold(text) == Self.foundation(text), "\(language): \(text)")
                }
            }
        }
    }

    @Test(arguments: tricky)
    func aNameLowercasingGetsWrongFoldsAsFoundationFoldsIt(text: String) {
        #expect(Suggestion.fold(text) == Self.foundation(text))
    }

    static func foundation(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
