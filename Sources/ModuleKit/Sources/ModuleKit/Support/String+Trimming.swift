/// Trimming with the standard library alone. The kit imports FoundationEssentials, not
/// Foundation: the whole of Foundation (and ICU behind it) costs every process about 2 ms to
/// link, whether or not it is used, and `trimmingCharacters(in:)` is one of the few things the
/// kit took from it. The host uses them too (its SPI: not for modules).
@_spi(Host)
extension StringProtocol {
    /// Without the spaces and tabs at either end, as `trimmingCharacters(in: .whitespaces)`.
    public func trimmedOfSpaces() -> String {
        trimming { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    /// Without white space and line ends at either end, as
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmedOfWhitespace() -> String { trimming(\.properties.isWhitespace) }

    private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }), let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
