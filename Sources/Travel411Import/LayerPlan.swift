import Foundation
import Travel411Core
import Travel411OSM
import Travel411Shapefile
import Travel411Store

/// A shapefile opened and matched to a profile, before anything is written. A class: every record of the
/// layer is handed it, and the first answer's import of `Data/` runs unoptimised, where copying the plan
/// (its profile's dictionaries and arrays) per record cost more than reading the record's fields.
final class LayerPlan {
    let url: URL
    let reader: ShapefileReader
    let profile: LayerProfile
    let table: String
    /// The DBF field index for each role the profile names and the file has, in preference order.
    let roleFields: [FieldRole: [Int]]
    /// GDAL's `other_tags` field, when the profile reads tags from it.
    let otherTagsField: Int?

    init(
        url: URL, reader: ShapefileReader, profile: LayerProfile, table: String, roleFields: [FieldRole: [Int]],
        otherTagsField: Int? = nil
    ) {
        self.url = url
        self.reader = reader
        self.profile = profile
        self.table = table
        self.roleFields = roleFields
        self.otherTagsField = otherTagsField
    }

    static func make(url: URL, options: ImportOptions, usedTables: inout Set<String>) throws -> LayerPlan {
        let reader = try ShapefileReader(path: url.path)
        let fileName = url.lastPathComponent
        let fieldNames = Set(reader.fields.map { $0.name.lowercased() })
        let profile: LayerProfile
        // A level given for this very file wins over the layout's, unless the layout's is the same.
        let fileLevel = options.fileLevels.first { $0.names(url) }?.value
        if let known = LayerProfile.known.first(where: {
            $0.matches(fileName: fileName, fieldNames: fieldNames, geometry: reader.geometryKind)
        }), fileLevel == nil || fileLevel == known.level {
            profile = known
        } else if let level = options.level(for: url) {
            // A file given its own level may leave out --name-field when it has a field called "name".
            let nameFieldCalledName = fileLevel == nil ? nil : reader.fields.first { $0.name.lowercased() == "name" }?.name
            guard let nameField = options.nameField(for: url) ?? nameFieldCalledName else {
                throw ImportError(
                    "\(url.path): --level \(level.rawValue) also needs --name-field FIELD (fields: \(reader.fields.map(\.name).joined(separator: ", ")))"
                )
            }
            guard reader.fieldIndex(nameField) != nil else {
                throw ImportError(
                    "\(url.path): field '\(nameField)' given by --name-field does not exist (fields: \(reader.fields.map(\.name).joined(separator: ", ")))"
                )
            }
            if let expected = level.expectedGeometry, expected != reader.geometryKind,
                !(expected == .point && reader.geometryKind == .multiPoint)
            {
                throw ImportError(
                    "\(url.path): --level \(level.rawValue) needs \(expected.rawValue) geometry, but this file holds \(reader.geometryKind.rawValue)s"
                )
            }
            profile = .userMapped(level: level, nameField: nameField)
        } else {
            let levels = PlaceLevel.userMappable.map(\.rawValue).joined(separator: "|")
            let fields = reader.fields.map(\.name)
            throw ImportError(
                """
                \(url.path): travel411 does not know this layout (\(reader.geometryKind.rawValue)s with fields \(fields.joined(separator: ", "))).
                Say what it holds: --level \(levels) and --name-field FIELD, for example
                  travel411 import \(url.path) --level \(suggestedLevel(reader.geometryKind).rawValue) --name-field \(suggestedNameField(reader.fields))
                """)
        }
        var roleFields: [FieldRole: [Int]] = [:]
        for (role, candidates) in profile.roles {
            roleFields[role] = candidates.compactMap { reader.fieldIndex($0) }
        }
        return LayerPlan(
            url: url, reader: reader, profile: profile, table: uniqueTableName(for: url, used: &usedTables), roleFields: roleFields,
            otherTagsField: profile.otherTags.isEmpty ? nil : reader.fieldIndex("other_tags"))
    }

    private static func suggestedLevel(_ geometry: ShapefileGeometryKind) -> PlaceLevel {
        switch geometry {
        case .point, .multiPoint: return .locality
        case .polyline: return .thoroughfare
        case .polygon: return .admin
        }
    }

    /// The field most likely to hold names for the example: one called "…name…", else the first text
    /// field; numbers such as AREA or PERIMETER, often first, make no sense as names.
    private static func suggestedNameField(_ fields: [DBFField]) -> String {
        let text = fields.filter { $0.type == .string }
        return (text.first { $0.name.lowercased().contains("name") } ?? text.first ?? fields.first)?.name ?? "NAME"
    }

    /// A SQL-safe table name from the file name, unique within this import.
    private static func uniqueTableName(for url: URL, used: inout Set<String>) -> String {
        var base = String(url.deletingPathExtension().lastPathComponent.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
        if base.isEmpty || base.first?.isNumber == true || base.hasPrefix("gpkg_") || base.hasPrefix("rtree_")
            || base.hasPrefix("travel411_") || base.hasPrefix("sqlite_")
        {
            base = "layer_" + base
        }
        var name = base
        var suffix = 2
        while !used.insert(name).inserted {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        return name
    }

    /// The first non-empty value among the role's fields; Natural Earth writes "-99" for "none".
    package func text(_ role: FieldRole, record: Int) -> String? {
        for field in roleFields[role] ?? [] {
            if let value = reader.string(record: record, field: field), !value.isEmpty, value != "-99" { return value }
        }
        if let otherTagsField, let keys = profile.otherTags[role], let tags = reader.string(record: record, field: otherTagsField) {
            for key in keys {
                if let value = OSMOtherTags.value(of: key, in: tags), !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// Why a record of a layout that feeds the lookups only with some role (`usedOnlyWith`) does not.
    func unusedReason(record: Int) -> String? {
        guard let role = profile.usedOnlyWith, text(role, record: record) == nil else { return nil }
        return "no \(profile.roles[role]?.first ?? role.rawValue)"
    }

    /// The shape the lookups take: a polygon stands as a point inside it where its level wants points.
    func lookupShape(_ shape: Shape) -> Shape {
        guard profile.level.expectedGeometry == .point, profile.geometry == .polygon,
            case let point = shape.pointOnSurface
        else { return shape }
        return .point(point)
    }

    package func number(_ role: FieldRole, record: Int) -> Double? {
        for field in roleFields[role] ?? [] {
            if let value = reader.double(record: record, field: field) { return value }
        }
        return nil
    }
}
