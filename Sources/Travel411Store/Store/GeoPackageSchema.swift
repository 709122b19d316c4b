import Foundation
import Travel411Core

/// The geometry type a feature table declares in gpkg_geometry_columns.
public enum GeoPackageGeometryType: String, Sendable, CaseIterable {
    case point = "POINT"
    case multiPoint = "MULTIPOINT"
    case lineString = "LINESTRING"
    case multiLineString = "MULTILINESTRING"
    case polygon = "POLYGON"
    case multiPolygon = "MULTIPOLYGON"
    case geometry = "GEOMETRY"

    /// The type a shape has on its own.
    public init(of shape: Shape) {
        switch shape {
        case .point: self = .point
        case .multiPoint: self = .multiPoint
        case .lineString: self = .lineString
        case .multiLineString: self = .multiLineString
        case .polygon: self = .polygon
        case .multiPolygon: self = .multiPolygon
        }
    }

    /// `shape` as it must be stored in a column of this type, or nil if it does not fit. Single shapes are
    /// promoted into multi columns, because shapefiles mix one-part and many-part records in one file.
    public func storable(_ shape: Shape) -> Shape? {
        switch (self, shape) {
        case (.geometry, _): return shape
        case (.multiPoint, .point(let point)): return .multiPoint([point])
        case (.multiLineString, .lineString(let line)): return .multiLineString([line])
        case (.multiPolygon, .polygon(let polygon)): return .multiPolygon([polygon])
        default: return GeoPackageGeometryType(of: shape) == self ? shape : nil
        }
    }
}

/// The SQL type of an attribute column; GeoPackage allows these names.
public enum FeatureColumnType: String, Sendable {
    case text = "TEXT"
    case integer = "INTEGER"
    case real = "REAL"
}

/// An attribute column of a feature or attributes table.
public struct FeatureColumn: Sendable, Hashable {
    public var name: String
    public var type: FeatureColumnType

    public init(name: String, type: FeatureColumnType) {
        self.name = name
        self.type = type
    }

    public static func text(_ name: String) -> FeatureColumn { FeatureColumn(name: name, type: .text) }
    public static func integer(_ name: String) -> FeatureColumn { FeatureColumn(name: name, type: .integer) }
    public static func real(_ name: String) -> FeatureColumn { FeatureColumn(name: name, type: .real) }
}

/// A mistake in how a GeoPackage is being written or read; each message names the file.
public struct GeoPackageError: Error, CustomStringConvertible, LocalizedError {
    public let path: String
    public let message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
    public var errorDescription: String? { description }
}

/// Names and SQL that the GeoPackage standard (OGC 12-128) fixes.
package enum GeoPackageSchema {
    /// 'GPKG' in ASCII, stored in the SQLite header so tools recognise the file.
    package static let applicationID: Int32 = 0x4750_4B47
    /// Version 1.3.0. GDAL 3.6, as shipped by Debian 12, warns on 1.4 files, which add nothing we use.
    package static let userVersion: Int32 = 10300

    package static let primaryKeyColumn = "fid"
    package static let geometryColumn = "geom"

    package static let rtreeExtensionName = "gpkg_rtree_index"
    package static let rtreeExtensionDefinition = "http://www.geopackage.org/spec120/#extension_rtree"

    package static let coreTables = """
        CREATE TABLE gpkg_spatial_ref_sys (
          srs_name TEXT NOT NULL,
          srs_id INTEGER NOT NULL PRIMARY KEY,
          organization TEXT NOT NULL,
          organization_coordsys_id INTEGER NOT NULL,
          definition TEXT NOT NULL,
          description TEXT
        );
        CREATE TABLE gpkg_contents (
          table_name TEXT NOT NULL PRIMARY KEY,
          data_type TEXT NOT NULL,
          identifier TEXT UNIQUE,
          description TEXT DEFAULT '',
          last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,
          srs_id INTEGER,
          CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id)
        );
        CREATE TABLE gpkg_geometry_columns (
          table_name TEXT NOT NULL,
          column_name TEXT NOT NULL,
          geometry_type_name TEXT NOT NULL,
          srs_id INTEGER NOT NULL,
          z TINYINT NOT NULL,
          m TINYINT NOT NULL,
          CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
          CONSTRAINT uk_gc_table_name UNIQUE (table_name),
          CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
          CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id)
        );
        CREATE TABLE gpkg_extensions (
          table_name TEXT,
          column_name TEXT,
          extension_name TEXT NOT NULL,
          definition TEXT NOT NULL,
          scope TEXT NOT NULL,
          CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name)
        );
        """

    /// The three rows the standard requires: WGS 84 and the two "undefined" systems.
    package static let spatialReferenceSystems: [[SQLValue]] = [
        [
            .text("WGS 84 geodetic"), .integer(4326), .text("EPSG"), .integer(4326),
            .text(
                #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]"#
            ),
            .text("longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid"),
        ],
        [
            .text("Undefined Cartesian SRS"), .integer(-1), .text("NONE"), .integer(-1), .text("undefined"),
            .text("undefined Cartesian coordinate reference system"),
        ],
        [
            .text("Undefined geographic SRS"), .integer(0), .text("NONE"), .integer(0), .text("undefined"),
            .text("undefined geographic coordinate reference system"),
        ],
    ]

    package static func rtreeTableName(for table: String) -> String { "rtree_\(table)_\(geometryColumn)" }

    /// An identifier quoted for SQL, so any table or column name is safe to splice into a statement.
    package static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The time format of gpkg_contents.last_change and of our own timestamps: ISO 8601 in UTC.
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func date(fromTimestamp text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

extension GeoPackageError: Travel411Error {
    public var exitStatus: ExitStatus { .dataError }
}
