extension StringProtocol {
    /// Without the spaces and tabs at either end, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)`: the module links only FoundationEssentials.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == "\t" || ($0.isWhitespace && !$0.isNewline) }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
