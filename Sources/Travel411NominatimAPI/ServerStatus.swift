import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// `GET /status`, as Nominatim answers it: `OK` as text, or a small JSON object with `format=json`.
public struct ServerStatus: Sendable {
    /// Nominatim's `data_updated` ("2026-11-25T00:34:04+00:00"): when the OpenStreetMap data was current, as
    /// Nominatim takes it from osm2pgsql (the newest element's timestamp of the newest extract); for a database
    /// without an extract, or whose extract's elements carry no timestamps, when it was built.
    public var dataUpdated: String?
    /// The lookup tables' schema version, as `database_version`.
    public var databaseVersion: String?

    public init(dataUpdated: String?, databaseVersion: String?) {
        self.dataUpdated = dataUpdated
        self.databaseVersion = databaseVersion
    }

    /// Reads the data's date and the lookup schema from the database's metadata table.
    public init(databasePath: String) throws {
        let metadata = try GeoPackageReader(path: databasePath).metadata()
        let date = metadata[PlacesSchema.osmDataTimestampKey] ?? metadata["build_date"]
        dataUpdated = date.map { $0.hasSuffix("Z") ? String($0.dropLast()) + "+00:00" : $0 }
        databaseVersion = metadata["lookup_schema_version"]
    }

    public enum Format: String, CaseIterable, Sendable { case text, json }

    /// Nominatim's `/status` takes `format=text` (the default) or `format=json`.
    public static func format(parameters: [(name: String, value: String)]) throws -> Format {
        guard let text = parameters.first(where: { $0.name == "format" })?.value else { return .text }
        guard let format = Format(rawValue: text.lowercased()) else {
            throw ServerRequestError("Parameter 'format' must be one of: text, json; got '\(DisplayText.sanitized(text, limit: 40))'")
        }
        return format
    }

    public func body(_ format: Format) -> String {
        switch format {
        case .text: return "OK"
        case .json:
            return "{\"status\":0,\"message\":\"OK\",\"data_updated\":\(dataUpdated.map(JSONText.string) ?? "null"),"
                + "\"software_version\":\(JSONText.string("travel411 " + Travel411.version)),"
                + "\"database_version\":\(databaseVersion.map(JSONText.string) ?? "null")}"
        }
    }
}
