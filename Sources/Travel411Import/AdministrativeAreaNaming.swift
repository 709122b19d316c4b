import Foundation
import Travel411Core
import Travel411Geocoder

/// The first-level name and ISO 3166-2 code of each admin polygon, decided from the GeoNames
/// localities inside it (docs/fields.md, administrativeArea).
package struct AdministrativeAreaNaming {
    package struct Decision: Equatable {
        package var area: String?
        var subArea: String?
        var code: String?

        package init(area: String? = nil, subArea: String? = nil, code: String? = nil) {
            self.area = area
            self.subArea = subArea
            self.code = code
        }
    }

    /// One entry per admin feature.
    package let decisions: [Decision]
    /// "Brazil: the polygon labelled Mato Grosso do Sul (BR-MS) holds 853 localities of Minas Gerais":
    /// every polygon whose label its localities contradict, for the import summary.
    package let contradictions: [String]
    /// A polygon's localities agree when at least this many vote and the leading name has at least
    /// `clearShare` of the votes.
    static let minimumVotes = 3
    static let clearShare = 2.0 / 3.0

    /// `localityAdmin[i]` is the admin feature holding locality i; `localityCounts[i]` whether it
    /// may vote (its own country is the country polygon's where it lies).
    init(
        features: [LookupCollector.AreaFeature], localities: [LookupCollector.Locality], localityAdmin: [Int?],
        localityCounts: [Bool]
    ) {
        var votes = [[String: (count: Int, population: Double)]](repeating: [:], count: features.count)
        var admin1Names: [String: Set<String>] = [:]  // country → folded GeoNames admin1 names
        var folding = AdministrativeAreaNameFolding()
        for (i, locality) in localities.enumerated() {
            guard let admin1 = locality.admin1 else { continue }
            if let country = locality.countryCode { admin1Names[country, default: []].insert(folding(admin1)) }
            guard let f = localityAdmin[i], f < features.count, localityCounts[i] else { continue }
            let current = votes[f][admin1] ?? (0, 0)
            votes[f][admin1] = (current.count + 1, current.population + locality.population)
        }
        // The leading name of each polygon, and whether it leads clearly.
        let leading: [(name: String, clear: Bool, majority: Bool)?] = votes.map { tally in
            guard
                let top = tally.max(by: { a, b in
                    a.value.count != b.value.count
                        ? a.value.count < b.value.count
                        : a.value.population != b.value.population ? a.value.population < b.value.population : a.key > b.key
                })
            else { return nil }
            let total = tally.values.reduce(0) { $0 + $1.count }
            let clear = total >= Self.minimumVotes && Double(top.value.count) >= Self.clearShare * Double(total)
            return (top.key, clear, top.value.count * 2 > total)
        }
        func key(_ f: Int, _ name: String) -> String { "\(features[f].countryCode ?? "")|\(name)" }
        var clearPolygons: [String: Int] = [:]
        for (f, lead) in leading.enumerated() where lead?.clear == true {
            if let lead { clearPolygons[key(f, lead.name), default: 0] += 1 }
        }
        // Polygons of a country by folded label, to find where a contradicted label's code belongs.
        var polygonsByLabel: [String: [Int]] = [:]
        for (f, feature) in features.enumerated() {
            if let name = feature.name {
                polygonsByLabel["\(feature.countryCode ?? "")|\(AdministrativeAreaName.folded(name))", default: []].append(f)
            }
        }
        var contradictions: [String] = []
        decisions = features.enumerated().map { f, feature in
            let ownCode = Self.validCode(feature.code)
            guard let lead = leading[f] else { return Decision(area: feature.name, subArea: nil, code: ownCode) }
            let shared = clearPolygons[key(f, lead.name), default: 0]
            // Several polygons share the name: they are finer units of a first-level area whose own code
            // the layer does not carry. A polygon with too few localities joins such a name when most of
            // its localities carry it.
            if shared >= 2, lead.majority {
                return Decision(area: lead.name, subArea: feature.name == lead.name ? nil : feature.name, code: nil)
            }
            guard lead.clear else { return Decision(area: feature.name, subArea: nil, code: ownCode) }
            let country = feature.countryCode ?? ""
            let label = feature.name.map(AdministrativeAreaName.folded) ?? ""
            let leadFolded = AdministrativeAreaName.folded(lead.name)
            // A label that is another first-level name of the same country is a labelling error; one
            // that is not (Bayern for Bavaria) is the same area in another language.
            let contradicted = !label.isEmpty && label != leadFolded && (admin1Names[country]?.contains(label) ?? false)
            guard contradicted else { return Decision(area: lead.name, subArea: nil, code: ownCode) }
            let count = votes[f][lead.name]?.count ?? 0
            contradictions.append(
                "\(feature.countryCode ?? "?"): the polygon labelled \(feature.name ?? "?")\(feature.code.map { " (\($0))" } ?? "") holds \(count) localities of \(lead.name)"
            )
            // Its code follows the label; the right one is that of the polygon labelled with the name, if any.
            let owners = polygonsByLabel["\(country)|\(leadFolded)"] ?? []
            let code = owners.count == 1 ? Self.validCode(features[owners[0]].code) : nil
            return Decision(area: lead.name, subArea: nil, code: code)
        }
        self.contradictions = contradictions.sorted()
    }

    /// An ISO 3166-2 code as Natural Earth writes it when known ("DE-BY", "US-CA", "EC-N"); its
    /// placeholders ("SY-X01~") are not codes.
    static func validCode(_ code: String?) -> String? {
        guard let code else { return nil }
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }),
            (1...3).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
            !(parts[1].first == "X" && parts[1].count == 3 && parts[1].dropFirst().allSatisfy(\.isNumber))
        else { return nil }
        return code
    }
}
