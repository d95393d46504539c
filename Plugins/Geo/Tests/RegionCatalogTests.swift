import Foundation
import Testing

@testable import GeoFeature

/// The country codes Geo offers are written out (reading them from ICU at every start was
/// most of Geo's start); they must stay the ones Foundation knows and names.
@Suite struct RegionCatalogTests {
    @Test func theWrittenCodesAreFoundationsCountries() {
        let foundation = Locale.Region.isoRegions.map(\.identifier)
            .filter { $0.count == 2 && $0.allSatisfy(\.isLetter) && !RegionCatalog.groupings.contains($0) }
            .sorted()
        #expect(RegionCatalog.isoCodes == foundation)
    }

    @Test func everyCodeHasANameInEveryShippedLanguage() {
        let catalog = RegionCatalog()
        for language in ["en", "fr", "el"] {
            let unnamed = catalog.codes.filter { catalog.name(of: $0, locale: language) == $0 }
            #expect(unnamed == [], "\(language)")
        }
    }

    /// Names sort by their folded form (case and accents aside), as the person's language lists
    /// them: `Ägypten` among the A's, `Österreich` among the O's.
    @Test func namesSortByTheirFoldedForm() {
        let names = ["Österreich", "Zypern", "oman", "Ägypten", "Albanien", "Élide", "Estland", "Oman"]
        #expect(
            RegionCatalog.sortedByName(names) { $0 } == ["Ägypten", "Albanien", "Élide", "Estland", "Oman", "oman", "Österreich", "Zypern"])
        #expect(RegionCatalog.fold("Ελλάδα Österreich ÇA") == "ελλαδα osterreich ca")
    }

    /// The keys Geo stores with each city were made by Foundation's folding: the folding of
    /// the standard library alone must give the same keys, or a city saved before is not found.
    @Test func namesFoldAsFoundationFoldedThem() {
        let catalog = RegionCatalog()
        var names = ["ΚΥΠΡΟΣ", "Κύπρος", "Gießen", "GIESSEN", "ΒΌΛΟΣ", "Βόλος", "Łódź", "İstanbul", "Þórshöfn", "ﬁnal", "שָׁלוֹם", "नमस्ते"]
        for language in ["en", "es", "fr", "de", "it", "el"] {
            names += catalog.codes.map { catalog.name(of: $0, locale: language) }
        }
        for name in names {
            for text in [name, name.uppercased(), name.lowercased()] {
                #expect(
                    RegionCatalog.fold(text) == text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), "\(text)")
            }
        }
    }

    @Test(arguments: ["", "  ", "\t Lyon \t", " two words ", "\u{00A0}no-break\u{2003}", "é ", "line\n"])
    func spacesAreTrimmedAsFoundationDoes(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
    }
}
