import Foundation
import Travel411Core

/// One imported source file, as listed in the travel411_sources table.
public struct SourceRecord: Hashable, Sendable {
    /// The layer (feature table) the file was imported into.
    public var layer: String
    /// The administrative or thematic level, e.g. "country" or "city".
    public var level: String
    public var path: String
    /// SHA-256 of the source files, in hex, to tell whether a rebuild is needed.
    public var sha256: String
    public var featureCount: Int
    public var skippedCount: Int
    /// Human-readable reasons records were skipped, e.g. "3 null shapes; 1 ring with < 4 points".
    public var skippedReasons: String
    public var importSeconds: Double
    /// Stored as ISO 8601 in UTC to the second.
    public var importedAt: Date

    public init(
        layer: String, level: String, path: String, sha256: String, featureCount: Int, skippedCount: Int = 0,
        skippedReasons: String = "", importSeconds: Double, importedAt: Date = Date()
    ) {
        self.layer = layer
        self.level = level
        self.path = path
        self.sha256 = sha256
        self.featureCount = featureCount
        self.skippedCount = skippedCount
        self.skippedReasons = skippedReasons
        self.importSeconds = importSeconds
        self.importedAt = importedAt
    }

    /// The table's columns after its integer `id`, in the order of `values`.
    package static let columns: [FeatureColumn] = [
        .text("layer"), .text("level"), .text("path"), .text("sha256"), .integer("feature_count"),
        .integer("skipped_count"), .text("skipped_reasons"), .real("import_seconds"), .text("imported_at"),
    ]

    package var values: [SQLValue] {
        [
            .text(layer), .text(level), .text(path), .text(sha256), .integer(Int64(featureCount)),
            .integer(Int64(skippedCount)), .text(skippedReasons), .real(importSeconds),
            .text(GeoPackageSchema.timestamp(importedAt)),
        ]
    }

    /// Reads a row selected as `columns`, in order; nil if a required field is missing.
    package init?(row: [SQLValue]) {
        guard row.count == Self.columns.count,
            let importedAtText = row[8].stringValue,
            let importedAt = GeoPackageSchema.date(fromTimestamp: importedAtText)
        else { return nil }
        self.init(
            layer: row[0].stringValue ?? "", level: row[1].stringValue ?? "", path: row[2].stringValue ?? "",
            sha256: row[3].stringValue ?? "", featureCount: Int(row[4].int64Value ?? 0),
            skippedCount: Int(row[5].int64Value ?? 0), skippedReasons: row[6].stringValue ?? "",
            importSeconds: row[7].doubleValue ?? 0, importedAt: importedAt)
    }
}
