import Foundation

/// The first-level name and ISO 3166-2 code of each admin polygon, decided from the GeoNames
/// localities inside it (docs/fields.md, administrativeArea).
///
/// Natural Earth's admin-1 layer mixes first-level units (Bayern, California) with finer ones (the
/// English boroughs, French departments), and carries labelling errors as real data does (the
/// polygon of Minas Gerais labelled "Mato Grosso do Sul"). The localities' own admin1 settles both.
///
/// The importer decides (Import/AdministrativeAreaNaming.swift); the lookup tables compare names folded
/// the same way (`FirstLevelAreas`), which is why the type is declared down here, below both.
struct AdministrativeAreaNaming {
    struct Decision: Equatable {
        var area: String?
        var subArea: String?
        var code: String?
    }

    /// One entry per admin feature.
    let decisions: [Decision]
    /// "Brazil: the polygon labelled Mato Grosso do Sul (BR-MS) holds 853 localities of Minas Gerais":
    /// every polygon whose label its localities contradict, for the import summary.
    let contradictions: [String]

    /// A name compared across languages' spellings and GeoNames' suffixes: lower case, no accents,
    /// without generic words ("Tungurahua Province" and "Tungurahua" are the same).
    static func folded(_ name: String) -> String {
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
