extension Array where Element == String {
    /// The strings joined by `separator`, by hand: the standard library's `joined(separator:)`
    /// is generic over the sequence, and its first call in a process (again after each `dlopen`)
    /// asks the runtime for an associated type by name, a scan of every conformance record
    /// loaded. For the start-up path; elsewhere `joined(separator:)` reads better.
    package func joinedConcretely(separator: String) -> String {
        guard var text = first else { return "" }
        for part in dropFirst() {
            text.append(separator)
            text.append(part)
        }
        return text
    }
}
