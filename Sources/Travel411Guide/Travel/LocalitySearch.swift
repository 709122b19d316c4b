import Foundation
import Travel411Kit

/// A populated place from the places database's GeoNames localities.
public struct Locality: Hashable, Sendable, Codable {
    public var name: String
    public var countryCode: String
    public var population: Int64
    public var coordinate: Coordinate
}

/// The SQL behind choosing a City, over the importer's `travel411_localities` table (every locality
/// layer, GeoNames and OpenStreetMap places alike, with its country filled in).
public enum LocalitySearch {
    enum Columns {
        static let table = "travel411_localities", name = "name", country = "cc", population = "population"
        static let latitude = "latitude", longitude = "longitude"
    }

    /// The most populous locality called `name` (ignoring ASCII case) in `countryCode`.
    public static func mostPopulous(named name: String, inCountry countryCode: String, in database: SQLiteDatabase) throws -> Locality? {
        try requireTable(in: database)
        return try select(
            where: "\(Columns.name) = ? COLLATE NOCASE AND \(Columns.country) = ? COLLATE NOCASE",
            [.text(name), .text(countryCode)], in: database
        )
        .max { $0.population < $1.population }
    }

    /// Localities within `radiusMetres` of `point` (optionally only those called `name`), nearest first.
    public static func near(
        _ point: Coordinate, radiusMetres: Double, named name: String? = nil,
        in database: SQLiteDatabase
    ) throws -> [(locality: Locality, distanceMetres: Double)] {
        try requireTable(in: database)
        // A latitude band narrows the scan cheaply; the exact test is the great-circle distance.
        let band = radiusMetres / 111_000 + 0.01
        var condition = "\(Columns.latitude) BETWEEN ? AND ?"
        var values: [SQLValue] = [.real(point.latitude - band), .real(point.latitude + band)]
        if let name {
            condition += " AND \(Columns.name) = ? COLLATE NOCASE"
            values.append(.text(name))
        }
        return try select(where: condition, values, in: database)
            .map { ($0, GreatCircle.distance(from: point, to: $0.coordinate)) }
            .filter { $0.1 <= radiusMetres }
            .sorted { $0.1 < $1.1 }
    }

    private static func select(where condition: String, _ values: [SQLValue], in database: SQLiteDatabase) throws -> [Locality] {
        let rows = try database.query(
            """
            SELECT \(Columns.name), \(Columns.country), \(Columns.population), \(Columns.latitude), \(Columns.longitude)
            FROM \(Columns.table) WHERE \(condition)
            """, values)
        return rows.compactMap { row in
            guard row.count == 5, let name = row[0].stringValue, let latitude = row[3].doubleValue,
                let longitude = row[4].doubleValue,
                let coordinate = try? Coordinate(validatingLatitude: latitude, longitude: longitude)
            else { return nil }
            return Locality(
                name: name, countryCode: row[1].stringValue ?? "", population: row[2].int64Value ?? 0,
                coordinate: coordinate)
        }
    }

    private static func requireTable(in database: SQLiteDatabase) throws {
        guard try database.tableExists(Columns.table) else {
            throw CityResolutionError.noLocalitiesTable(path: database.path)
        }
    }
}
