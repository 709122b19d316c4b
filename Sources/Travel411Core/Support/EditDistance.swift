/// How many single-character edits turn one text into another; used to suggest what the user
/// probably meant when a code or a name is unknown.
public enum EditDistance {
    /// Levenshtein distance over Unicode characters, case-sensitive (callers fold case first).
    public static func levenshtein(_ a: String, _ b: String) -> Int {
        let source = Array(a), target = Array(b)
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        // Two rolling rows keep memory linear in the shorter input's partner.
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[target.count]
    }
}
