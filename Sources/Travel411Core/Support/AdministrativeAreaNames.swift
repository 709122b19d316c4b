import Foundation

/// How first-level area names are compared (docs/fields.md, administrativeArea).
///
/// Natural Earth's admin-1 layer mixes first-level units (Bayern, California) with finer ones (the
/// English boroughs, French departments), and carries labelling errors as real data does (the
/// polygon of Minas Gerais labelled "Mato Grosso do Sul"). The localities' own admin1 settles both.
///
/// The importer decides each polygon's name (`AdministrativeAreaNaming`); the lookup tables compare names
/// folded the same way (`FirstLevelAreas`), which is why the folding is declared down here, below both.
package enum AdministrativeAreaName {
    /// A name compared across languages' spellings and GeoNames' suffixes: lower case, no accents,
    /// without generic words ("Tungurahua Province" and "Tungurahua" are the same).
    package static func folded(_ name: String) -> String {
        let generic: Set<Substring> = [
            "province", "provincia", "state", "of", "the", "region", "department", "departamento",
            "governorate", "prefecture", "county", "oblast", "estado", "do", "de", "del",
            "municipality", "city", "district",
        ]
        let plain = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        let words = plain.split { !$0.isLetter && !$0.isNumber }.filter { !generic.contains($0) }
        return words.joined(separator: " ")
    }
}

/// `AdministrativeAreaName.folded`, each distinct name folded once: the import folds GeoNames' 155,000 localities'
/// admin1 names, a few thousand distinct ones, twice (`FirstLevelAreas`, `AdministrativeAreaNaming`), and the
/// folding (Foundation's `folding`, a split) was 4 % of an extract's import at 150 copies of Liechtenstein.
package struct AdministrativeAreaNameFolding {
    private var folded: [String: String] = [:]

    package init() {}

    package mutating func callAsFunction(_ name: String) -> String {
        if let known = folded[name] { return known }
        let result = AdministrativeAreaName.folded(name)
        folded[name] = result
        return result
    }
}
