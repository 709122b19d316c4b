import Foundation

/// One country's postcode form, as Nominatim 5.3 checks and writes postcodes (`nominatim_db/data/postcode_format.py`,
/// `CountryPostcodeMatcher`, applied by the `clean-postcodes` sanitizer): the `postcode: pattern` of the country's
/// entry in `settings/country_settings.yaml`, with `d` a digit and `l` a capital letter, must match the whole
/// value once it is upper-cased, stripped of surrounding spaces and of a leading country code (`LI-9490`,
/// `LV 1010`); `output` (`\1` the pattern's first group) writes it in the country's form (Latvia's `1010`
/// answers `LV-1010`), else the value matched is the postcode. A value of zeros, dashes and spaces only is none.
struct NominatimPostcodeFormat: Sendable {
    private let normalising: NSRegularExpression
    private let pattern: NSRegularExpression
    /// An `NSRegularExpression` template: `\1` written as `$1`.
    private let template: String

    /// `pattern` and `output` as the settings file writes them; `countryCode` the entry's key (`lv`).
    init(countryCode: String, pattern written: String, output: String?) throws {
        let pattern = written.replacingOccurrences(of: "d", with: "[0-9]").replacingOccurrences(of: "l", with: "[A-Z]")
        let country = NSRegularExpression.escapedPattern(for: countryCode.uppercased())
        normalising = try NSRegularExpression(pattern: "^\\s*(?:\(country)[ -]?)?(\(pattern))\\s*$")
        self.pattern = try NSRegularExpression(pattern: "^(?:\(pattern))$")
        template = output.map(Self.template) ?? "$0"
    }

    /// Nominatim's output backreferences (`\1`) as a template; a literal `$` or `\` escaped.
    private static func template(_ output: String) -> String {
        var result = ""
        var characters = output.makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                guard let next = characters.next() else { break }
                result += next.isNumber ? "$\(next)" : NSRegularExpression.escapedTemplate(for: String(next))
            } else {
                result += NSRegularExpression.escapedTemplate(for: String(character))
            }
        }
        return result
    }

    /// The postcode in the country's form; nil for a value that is not one of its postcodes.
    func normalised(_ written: String) -> String? {
        let upper = written.uppercased()
        let whole = NSRange(upper.startIndex..., in: upper)
        guard let outer = normalising.firstMatch(in: upper, range: whole), let range = Range(outer.range(at: 1), in: upper)
        else { return nil }
        let value = String(upper[range])
        let valueRange = NSRange(value.startIndex..., in: value)
        guard let match = pattern.firstMatch(in: value, range: valueRange) else { return nil }
        // Nominatim's `zero_pattern`: 0000, 00-000, 000 00 are placeholders, not postcodes.
        guard !value.allSatisfy({ $0 == "0" || $0 == "-" || $0 == " " }) else { return nil }
        return pattern.replacementString(for: match, in: value, offset: 0, template: template)
    }
}
