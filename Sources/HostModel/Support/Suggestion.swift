import ModuleKit

/// The candidate nearest to `word` by edit distance, if it is near enough to be a typo.
package func nearest(to word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let prefixMatch = candidates.first { $0.lowercased().hasPrefix(lowered) && lowered.count >= 3 }
    if best.1 <= max(2, word.count / 3) { return best.0 }
    return prefixMatch
}

/// "; did you mean 'x'?" when a near candidate exists, else nothing.
package func suggestion(for word: String, among candidates: [String]) -> HostText {
    nearest(to: word, among: candidates).map { HostText("suggest.did.you.mean", "; did you mean '%@'?", [.plain($0)]) }
        ?? .plain("")
}
