import Foundation
import Travel411Core

/// The attribution a database's answers carry (Nominatim's `licence`, GeocodeJSON's `attribution`): the
/// licences of the sources its layers came from, as Data/README.md gives them. A database imported from an
/// OpenStreetMap extract alone carries Nominatim's own text; the embedded data names its five sources; a
/// layer of unknown origin (a user's shapefile mapped with `--level`) is named by its file, whose licence
/// travel411 cannot know.
public struct DataLicence: Sendable, Equatable {
    public let text: String
    /// `text` as a JSON string, escaped once rather than per answer.
    package let json: String

    public init(text: String) {
        self.text = text
        json = JSONText.string(text)
    }

    /// Nominatim's text, for answers of OpenStreetMap data alone.
    public static let openStreetMap = DataLicence(text: "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright")

    /// The embedded data's (Data/): what a database built from it carries.
    public static let embedded = DataLicence(
        text: "Data: Natural Earth (public domain); GeoNames (CC-BY 4.0); © OpenStreetMap contributors (ODbL 1.0); "
            + "Contains OS data © Crown copyright and database right; "
            + "Contains National Statistics data © Crown copyright and database right")

    /// A known source's attribution, by the start of its layer's layout (`LayerProfile.layout`, or an extract's
    /// "OpenStreetMap <kind>"), in the order the text names them.
    private static let sources: [(layouts: [String], attribution: String)] = [
        (["Natural Earth"], "Natural Earth (public domain)"),
        (["GeoNames"], "GeoNames (CC-BY 4.0)"),
        (
            ["OpenStreetMap", "GDAL OpenStreetMap", "Geofabrik", "IANA time zones (timezone-boundary-builder)"],
            "© OpenStreetMap contributors (ODbL 1.0)"
        ),
        (["Ordnance Survey"], "Contains OS data © Crown copyright and database right"),
        (["London boroughs"], "Contains National Statistics data © Crown copyright and database right"),
    ]

    /// The licence of the layers whose gpkg_contents descriptions ("<layout> from <file name>") are given.
    public static func of(layerDescriptions: [String]) -> DataLicence {
        var known = Set<Int>(), unknownFiles: [String] = []
        for description in layerDescriptions {
            if let index = sources.firstIndex(where: { $0.layouts.contains(where: description.hasPrefix) }) {
                known.insert(index)
            } else if let from = description.range(of: " from ", options: .backwards) {
                let file = String(description[from.upperBound...])
                if !unknownFiles.contains(file) { unknownFiles.append(file) }
            }
        }
        let openStreetMap = 2
        if known == [openStreetMap], unknownFiles.isEmpty { return .openStreetMap }
        let parts = known.sorted().map { sources[$0].attribution } + unknownFiles
        return DataLicence(text: parts.isEmpty ? "Data: no source recorded" : "Data: " + parts.joined(separator: "; "))
    }

    /// The gpkg_contents query giving the descriptions of a database's feature layers.
    package static let layerDescriptionsQuery = "SELECT description FROM gpkg_contents WHERE data_type = 'features'"
}
