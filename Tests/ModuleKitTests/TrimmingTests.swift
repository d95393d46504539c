import Foundation
@_spi(Host) import ModuleKit
import Testing

/// The kit's trimming, with the standard library alone, against Foundation's own.
@Suite struct TrimmingTests {
    static let texts = [
        "", "   ", "\t Lyon \t", " two words ", "\u{00A0}no-break\u{2003}", "line\n", "\n\r\t x \u{85}\u{2028}", "é ", " \u{301}e",
        "\u{1B}[31m red ", "inner  spaces",
    ]

    @Test(arguments: texts)
    func spacesAndTabsAreTrimmedAsFoundationDoes(text: String) {
        #expect(text.trimmedOfSpaces() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test(arguments: texts)
    func whiteSpaceAndLineEndsAreTrimmedAsFoundationDoes(text: String) {
        #expect(text.trimmedOfWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
