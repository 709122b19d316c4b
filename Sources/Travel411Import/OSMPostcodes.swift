import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// Which `addr:postcode` values of an extract are postcodes. Nominatim checks each against its country's
/// pattern (Finland `ddddd`, Liechtenstein `dddd`) and drops the others; travel411 knows no patterns, so it
/// takes them from the extract: a value is a postcode when its shape (digits as 9, letters as A: `00100` is
/// `99999`, `SW1A 1AA` is `AA9A 9AA`) is that of at least 1 % of the extract's postcodes. Helsinki's
/// `000120` (1 of 684) and Liechtenstein's `94490` (1 of 133) are typos by this rule, as by Nominatim's; a
/// country prefix (`LI-9496`) is dropped when what follows has a common shape.
struct OSMPostcodes {
    static let commonShare = 0.01
    private let commonShapes: Set<String>

    /// `counts`: how many objects carry each value as written.
    package init(counts: [String: Int]) {
        var shapes: [String: Int] = [:]
        for (written, count) in counts { shapes[Self.shape(Self.withoutCountryPrefix(Self.tidy(written))), default: 0] += count }
        let total = Double(shapes.values.reduce(0, +))
        commonShapes = Set(shapes.filter { Double($0.value) >= total * Self.commonShare }.keys)
    }

    /// The postcode as the answer gives it, nil for a value that is not one.
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
