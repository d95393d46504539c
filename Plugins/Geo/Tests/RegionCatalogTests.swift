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
}
