import Travel411Core
import Travel411Geocoder
import Travel411Store
import Travel411StoreWriters

/// Which `addr:postcode` values of an extract are postcodes, and in which form. Where the country is known and
/// Data/nominatim/ holds Nominatim's settings, the country's own pattern decides, as Nominatim's
/// `clean-postcodes` sanitizer does (`NominatimCountrySettings.postcode`): Liechtenstein's `94490` and
/// Helsinki's `000120` are none, Latvia's `1010` is `LV-1010`.
///
/// Without the settings, travel411 takes the forms from the extract: a value is a postcode when its shape
/// (digits as 9, letters as A: `00100` is `99999`, `SW1A 1AA` is `AA9A 9AA`) is that of at least 1 % of the
/// extract's postcodes, and a country prefix (`LI-9496`) is dropped when what follows has a common shape.
struct OSMPostcodes {
    static let commonShare = 0.01
    private let commonShapes: Set<String>
    /// Nominatim's country settings; nil to infer the forms from the extract.
    let settings: NominatimCountrySettings?
    /// Each value's answer per country, as an extract repeats a few thousand values over millions of objects.
    /// Emptied when it holds `memoLimit` answers: a large country's or the planet's millions of distinct postcodes
    /// would otherwise all stay in memory to the end of the import (issue 35); the answers are the same.
    private let memo = Memo()
    static let memoLimit = 1 << 16

    private final class Memo {
        var answers: [String: String?] = [:]
    }

    /// `counts`: how many objects carry each value as written.
    init(counts: [String: Int], settings: NominatimCountrySettings? = nil) {
        self.settings = settings
        var shapes: [String: Int] = [:]
        for (written, count) in counts { shapes[Self.shape(Self.withoutCountryPrefix(Self.tidy(written))), default: 0] += count }
        let total = Double(shapes.values.reduce(0, +))
        commonShapes = Set(shapes.filter { Double($0.value) >= total * Self.commonShare }.keys)
    }

    /// The postcode of an object in `countryCode` as the answer gives it, nil for a value that is not one: the
    /// country's form when the settings are known, else the extract's common shapes.
    func normalised(_ written: String, countryCode: String?) -> String? {
        guard let settings else { return normalised(written) }
        let key = (countryCode ?? "") + "\u{0}" + written
        if let known = memo.answers[key] { return known }
        let answer = settings.postcode(written, countryCode: countryCode)
        if memo.answers.count >= Self.memoLimit { memo.answers.removeAll() }
        memo.answers[key] = answer
        return answer
    }

    /// The postcode as the answer gives it by the extract's common shapes, nil for a value that is not one.
    func normalised(_ written: String) -> String? {
        let tidy = Self.tidy(written)
        let bare = Self.withoutCountryPrefix(tidy)
        if bare != tidy, commonShapes.contains(Self.shape(bare)) { return bare }
        return commonShapes.contains(Self.shape(tidy)) && !tidy.isEmpty ? tidy : nil
    }

    static func tidy(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").uppercased()
    }

    /// `LI-9496` → `9496`; anything else as it is.
    static func withoutCountryPrefix(_ text: String) -> String {
        let characters = Array(text)
        guard characters.count > 3, characters[0].isLetter, characters[1].isLetter, characters[2] == "-" || characters[2] == " "
        else { return text }
        return String(characters[3...])
    }

    static func shape(_ text: String) -> String {
        String(text.map { $0.isNumber ? "9" : $0.isLetter ? "A" : $0 })
    }
}
