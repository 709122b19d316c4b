import Travel411Core

/// First-level areas (a state, a province, an emirate) as small numbers, so that the locality rules
/// can compare a place's own first-level area with the point's without reading any text
/// (docs/fields.md, locality and subLocality).
///
/// An area is its country code and its GeoNames admin1 name, folded as `AdministrativeAreaNaming`
/// folds names ("Tungurahua Province" and "Tungurahua" are one). The localities number the areas;
/// an admin polygon takes the number of its decided `administrativeArea` in its country, and 0 when no
/// locality names that area (then nothing is preferred). 0 is unknown: a place without an admin1
/// (OpenStreetMap places) is of any area.
package struct FirstLevelAreas {
    /// The number of every locality's own area, by index.
    package let localities: [UInt32]
    private let numbers: [String: UInt32]

    /// `localities`: each locality's country code and GeoNames admin1, either nil when unknown.
    package init(localities: [(country: String?, admin1: String?)]) {
        var numbers: [String: UInt32] = [:]
        var folding = AdministrativeAreaNameFolding()
        self.localities = localities.map { locality in
            guard let key = Self.key(country: locality.country, name: locality.admin1, folding: &folding) else { return 0 }
            if let known = numbers[key] { return known }
            let number = UInt32(numbers.count + 1)
            numbers[key] = number
            return number
        }
        self.numbers = numbers
    }

    /// The number of the area named `name` in `country`; 0 when no locality is of it.
    package func number(country: String?, name: String?) -> UInt32 {
        var folding = AdministrativeAreaNameFolding()
        return Self.key(country: country, name: name, folding: &folding).flatMap { numbers[$0] } ?? 0
    }

    private static func key(country: String?, name: String?, folding: inout AdministrativeAreaNameFolding) -> String? {
        guard let country, !country.isEmpty, let name else { return nil }
        let folded = folding(name)
        return folded.isEmpty ? nil : "\(country)|\(folded)"
    }

    /// Whether two areas may be the same: equal, or either unknown.
    @inline(__always) package static func compatible(_ a: UInt32, _ b: UInt32) -> Bool {
        a == b || a == 0 || b == 0
    }
}
