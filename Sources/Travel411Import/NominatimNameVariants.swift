import Foundation
import Travel411Geocoder
import Travel411Store

/// Nominatim 5.3's abbreviation variants of names, read from its `settings/icu-rules/variants-*.yaml` (data, in
/// Data/nominatim/icu-rules/: Data/README.md gives their version and licence): `Via Quattro Novembre` is also
/// `Via IV Novembre` and `Via 4 Novembre`, `Hauptstraße` also `Hauptstr`. Nominatim's ICU tokenizer gives a
/// street a full-name token for each variant (`icu_tokenizer.yaml`'s `token-analysis`, the generic analyzer), and
/// an address's `addr:street` names the street when its own spelling is one of them (`_retrieve_full_tokens`,
/// `token_matches_street`): the variants are the street's, the address is matched as written.
///
/// What the rules say, as Nominatim's documentation describes them (`docs/customize/Tokenizers.md`, "Variants"):
/// `a, b -> x, y` adds `x` and `y` for `a` and for `b` and keeps the name as it is; `=>` replaces without keeping
/// it; a term is a whole word, `~` on a side lets it be the end (`~strasse`) or the start (`klein~`) of a longer
/// word, `^` and `$` tie it to the name's start or end. At each place in the name the longest term that matches
/// there is replaced, each match multiplying the variants, and a name with more than 128 keeps only itself.
///
/// Nominatim applies the rules of the languages of the street's country (`tag-analyzer-by-language`,
/// `use-defaults: all`); the import reads streets before it knows the countries, so the rules of every language
/// with a variants file apply here. A variant of another language's rules names a street only where an address
/// spells it that way, which the streets of these extracts never do.
struct NominatimNameVariants: Sendable {
    /// The terms as matched in a name written `^ name ^`: ` via ` (a whole word), `strasse ` (a word's end), ` klein`
    /// (a word's start), `^ via ` (the name's first word); each with the texts it becomes, itself included when kept.
    /// Kept by their first two characters, longest first, so that each place of a street's name tries only the terms
    /// that start as it does there: every street of an extract is matched at each of its characters.
    private let termsByStart: [String: [(term: [Character], texts: [String])]]

    /// More variants than this and the name keeps only itself, as Nominatim's generic analyzer does.
    static let maximumVariants = 128

    /// The rules of every `variants-*.yaml` in `folder` (Data/nominatim/icu-rules/).
    init(folder: URL) throws {
        var replacements: [String: Set<String>] = [:]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("variants-") && $0.hasSuffix(".yaml") }.sorted()
        for file in files {
            let path = folder.appendingPathComponent(file).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let rule = Self.ruleText(line) else { continue }
                guard let parsed = Self.parse(rule) else {
                    throw NominatimSettingsFileError(file: path, reason: "line \(number + 1): no `->` or `=>` in the variant `\(rule)`")
                }
                for (term, texts) in parsed { replacements[term, default: []].formUnion(texts) }
            }
        }
        var byStart: [String: [(term: [Character], texts: [String])]] = [:]
        for (term, texts) in replacements where term.count >= 2 {
            byStart[String(term.prefix(2)), default: []].append((Array(term), texts.sorted()))
        }
        termsByStart = byStart.mapValues { $0.sorted { $0.term.count > $1.term.count } }
    }

    /// Data/nominatim/icu-rules/ (`EmbeddedData`), read once per process; nil when Data/ has no such folder (an
    /// `addr:street` then names only the streets spelt as it is).
    static let embedded: NominatimNameVariants? = {
        guard let data = try? EmbeddedData.locate() else { return nil }
        return try? NominatimNameVariants(folder: data.appendingPathComponent("nominatim/icu-rules", isDirectory: true))
    }()

    /// A rule's text from a line `    - Calle -> C.le` of a `words:` list; nil for any other line.
    private static func ruleText(_ line: Substring) -> Substring? {
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("- "), !trimmed.hasPrefix("- lang:") else { return nil }
        let rule = trimmed.dropFirst(2).drop { $0 == " " }
        return rule.isEmpty ? nil : rule
    }

    /// A rule as terms (as matched) and the texts each becomes; nil without an arrow. A `~` term without `|` before the
    /// arrow (`~strasse -> str`) is also "decomposed" (`_create_variants`, nominatim_db/tokenizer/token_analysis/
    /// config_variants.py): a word's end becomes a word of its own and a word its predecessor's end, so `Benderer
    /// Strasse` is also `Bendererstrasse` and `Bendererstr`; with `|` (`~berg |-> bg`) the term stays as it was written.
    private static func parse(_ rule: Substring) -> [(String, Set<String>)]? {
        guard let arrow = rule.range(of: "->") ?? rule.range(of: "=>") else { return nil }
        let keeps = rule[arrow].first == "-"
        let decomposes = !rule[..<arrow.lowerBound].hasSuffix("|")
        let left = rule[..<arrow.lowerBound].replacingOccurrences(of: "|", with: "")
        let right = rule[arrow.upperBound...]
        let targets = right.split(separator: ",").map { normalised(String($0)) }.filter { !$0.isEmpty }
        var result: [(String, Set<String>)] = []
        for source in left.split(separator: ",") {
            var word = source.trimmingCharacters(in: .whitespaces)
            let suffix = word.hasPrefix("~"), prefix = word.hasSuffix("~")
            let first = word.hasPrefix("^"), last = word.hasSuffix("$")
            word = word.trimmingCharacters(in: CharacterSet(charactersIn: "~^$"))
            let term = normalised(word)
            guard !term.isEmpty else { continue }
            let texts = targets + (keeps ? [term] : [])
            for (form, wraps) in forms(of: term, suffix: suffix, prefix: prefix, first: first, last: last, decomposes: decomposes) {
                result.append((form, Set(texts.flatMap { text in wraps.map { $0(text) } })))
            }
        }
        return result
    }

    /// The forms a term matches in, each with how a text replaces it: a whole word; a word's end (`suffix`: joined to
    /// the word before, or a word); a word's start (`prefix`). `first` and `last` tie it to the name's ends.
    private static func forms(
        of term: String, suffix: Bool, prefix: Bool, first: Bool, last: Bool, decomposes: Bool
    ) -> [(String, [(String) -> String])] {
        let before = first ? "^ " : " ", after = last ? " ^" : " "
        if suffix {
            let joined: (String) -> String = { $0 + after }, apart: (String) -> String = { " " + $0 + after }
            return [
                (term + after, decomposes ? [joined, apart] : [joined]), (" " + term + after, decomposes ? [apart, joined] : [apart]),
            ]
        }
        if prefix {
            let joined: (String) -> String = { before + $0 }, apart: (String) -> String = { before + $0 + " " }
            return [
                (before + term, decomposes ? [joined, apart] : [joined]), (before + term + " ", decomposes ? [apart, joined] : [apart]),
            ]
        }
        return [(before + term + after, [{ before + $0 + after }])]
    }

    /// A name as the rules are matched in it: lower case, each run of characters other than letters and digits one
    /// space (`Sant'Eufemia` is `sant eufemia`), `ß` as `ss`.
    static func normalised(_ name: String) -> String {
        var words: [String] = []
        var word = ""
        for character in name.lowercased().replacingOccurrences(of: "ß", with: "ss") {
            if character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ")
    }

    /// The name's variants (the name itself first), as Nominatim's generic analyzer makes them.
    func variants(of name: String) -> [String] {
        let normal = Self.normalised(name)
        let base = Array("^ " + normal + " ^")
        var partials = [""]
        var start = 0, position = 0
        var replacedAny = false
        // After a term that ended with its word's space, the next term at that space keeps it: a text that would join
        // the two words is not taken there (`force_space` of `_generate_word_variants`, token_analysis/generic.py).
        var keepsSpace = false
        while position < base.count {
            guard let (length, texts) = longestTerm(in: base, at: position) else {
                position += 1
                keepsSpace = false
                continue
            }
            let done = String(base[start..<position])
            let taken = keepsSpace ? texts.filter { $0.hasPrefix(" ") } : texts
            partials = partials.flatMap { partial in taken.map { partial + done + $0 } }
            guard partials.count <= Self.maximumVariants else { return [normal] }
            replacedAny = true
            position += length
            // A term that ended with its word's space lets the next word's term start at that space.
            keepsSpace = base[position - 1] == " "
            if keepsSpace { position -= 1 }
            start = position
        }
        guard replacedAny else { return [normal] }
        let rest = String(base[start...])
        var seen: Set<String> = [normal]
        var result = [normal]
        for partial in partials {
            let variant = (partial + rest).replacingOccurrences(of: "^", with: "").split(separator: " ").joined(separator: " ")
            if seen.insert(variant).inserted { result.append(variant) }
        }
        return result
    }

    private func longestTerm(in base: [Character], at position: Int) -> (Int, [String])? {
        guard position + 2 <= base.count, let terms = termsByStart[String(base[position..<(position + 2)])] else { return nil }
        for (term, texts) in terms where position + term.count <= base.count {
            if base[position..<(position + term.count)].elementsEqual(term) { return (term.count, texts) }
        }
        return nil
    }
}
