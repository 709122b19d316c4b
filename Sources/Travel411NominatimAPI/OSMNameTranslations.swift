import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The `name:xx` tags of the OpenStreetMap objects an answer names (`travel411_osm_names`), read one indexed
/// row per object, and only for an answer in another language or with namedetails. Shared by a server's
/// requests: one read-only connection under a lock.
final class OSMNameTranslations: Sendable {
    private let reader: SharedDatabaseReader

    /// nil for a database without the table (imported from shapefiles only, or before it existed): its
    /// answers stay in `name`.
    init?(databasePath: String) {
        guard let reader = try? SharedDatabaseReader(path: databasePath, mapped: false),
            (try? reader.withDatabase { try $0.tableExists(OSMNamesSchema.tableName) }) == true
        else { return nil }
        self.reader = reader
    }

    /// The element's translations by language (`sv` → `Helsingfors`); empty when it has none.
    func translations(of feature: AnsweringFeature) -> [String: String] {
        let element = "\(feature.elementType.letter)\(feature.elementID)"
        guard
            let text = try? reader.query("SELECT names FROM \(OSMNamesSchema.tableName) WHERE element = ?", [.text(element)]).first?
                .first?.stringValue
        else { return [:] }
        return OSMNameList.decoded(text)
    }

    /// The placemark's OpenStreetMap objects with their `names`, and the fields they name in the first of
    /// `languages` each has a `name:xx` for, else in `name` (Nominatim's `Locales.display_name`).
    /// A field is renamed only when it holds its object's `name`: one the data took from elsewhere stays.
    /// `countryNames` (Natural Earth's, by language) name the country in a language its boundary has no
    /// `name:xx` for, as Nominatim's own country names do.
    func localized(_ placemark: Placemark, languages: [String], countryNames: [String: String] = [:]) -> Placemark {
        var placemark = placemark
        var known: [String: [String: String]] = [:]
        func name(
            _ featurePath: WritableKeyPath<Placemark, AnsweringFeature?>, _ field: WritableKeyPath<Placemark, String?>?,
            otherwise: [String: String] = [:]
        ) {
            guard var object = placemark[keyPath: featurePath] else { return }
            let key = "\(object.elementType.letter)\(object.elementID)"
            let translations = known[key] ?? translations(of: object)
            known[key] = translations
            let original = object.name
            object.names = OSMNameChoice.nameDetails(name: original, translations: translations)
            let choices = otherwise.isEmpty ? translations : translations.merging(otherwise) { own, _ in own }
            // Without a language (namedetails alone) every name stays as stored.
            if !languages.isEmpty, let chosen = OSMNameChoice.name(in: languages, name: original, translations: choices) {
                if let field, let original, placemark[keyPath: field] == original { placemark[keyPath: field] = chosen }
                object.name = chosen
            }
            placemark[keyPath: featurePath] = object
        }
        // A street answering is the thoroughfare too (ranks 26-27); a POI (30) names only itself.
        name(\.feature, placemark.feature.map { $0.rank < 30 } == true ? \.thoroughfare : nil)
        name(\.thoroughfareFeature, \.thoroughfare)
        name(\.neighbourhoodFeature, nil)
        name(\.villagePartFeature, nil)
        name(\.suburbBoundaryFeature, nil)
        name(\.ownQuarterFeature, nil)
        name(\.subLocalityFeature, \.subLocality)
        let locality = placemark.localityFeature
        name(\.localityFeature, \.locality)
        // The nearest locality is often the municipality's own place node (Helsinki's, 361 m from Kaivokatu): named
        // as the locality is, so that "locality Helsingfors" is not "361 m NW of Helsinki".
        if let locality, let renamed = placemark.localityFeature?.name, var nearest = placemark.nearestLocality,
            nearest.name == locality.name, abs(nearest.coordinate.latitude - locality.location.latitude) < 1e-6,
            abs(nearest.coordinate.longitude - locality.location.longitude) < 1e-6
        {
            nearest.name = renamed
            placemark.nearestLocality = nearest
        }
        name(\.subAdministrativeAreaFeature, \.subAdministrativeArea)
        name(\.administrativeAreaFeature, \.administrativeArea)
        name(\.countryFeature, \.country, otherwise: countryNames)
        return placemark
    }
}

/// Nominatim's choice of a name (`Locales.display_name` with its default `name:XX,name`): the first requested
/// language the object has a `name:xx` for, else `name`, else (an object with translations but no `name`)
/// the first translation.
enum OSMNameChoice {
    static func name(in languages: [String], name: String?, translations: [String: String]) -> String? {
        for language in languages {
            // Tags keep their case (`name:zh-Hans`); the languages asked for come in lower case.
            if let translated = translations[language] ?? translations.first(where: { $0.key.lowercased() == language })?.value {
                return translated
            }
        }
        return name ?? translations.min { $0.key < $1.key }?.value
    }

    /// `namedetails` as Nominatim lists an object's names, keyed by tag: `name`, then `name:xx`.
    static func nameDetails(name: String?, translations: [String: String]) -> [String: String] {
        var details = Dictionary(uniqueKeysWithValues: translations.map { ("name:\($0.key)", $0.value) })
        if let name { details["name"] = name }
        return details
    }
}

extension AnsweringFeature.ElementType {
    /// `N`, `W`, `R`, as the import records an element.
    var letter: String {
        switch self {
        case .node: return "N"
        case .way: return "W"
        case .relation: return "R"
        }
    }
}
