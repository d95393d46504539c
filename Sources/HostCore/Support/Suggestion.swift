/// The candidate nearest to `word` by edit distance, if it is near enough to be a typo.
func nearest(to word: String, among candidates: [String]) -> String? {
    let lowered = word.lowercased()
    let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let prefixMatch = candidates.first { $0.lowercased().hasPrefix(lowered) && lowered.count >= 3 }
    if best.1 <= max(2, word.count / 3) { return best.0 }
    return prefixMatch
}

/// Levenshtein distance between two strings, by characters.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// " ; did you mean 'x'?" when a near candidate exists, else "".
func didYouMean(_ word: String, among candidates: [String]) -> String {
    nearest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
}
