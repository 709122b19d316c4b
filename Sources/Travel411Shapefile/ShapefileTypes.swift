import Travel411Core

/// The geometry family of a shapefile. Z and M variants belong to the family of their 2-D type.
public enum ShapefileGeometryKind: String, Sendable {
    case point, multiPoint, polyline, polygon
}

/// One column of the attribute table.
public struct DBFField: Sendable, Hashable {
    public let name: String
    public let type: DBFFieldType
    public let width: Int
    public let decimals: Int

    public init(name: String, type: DBFFieldType, width: Int, decimals: Int) {
        self.name = name
        self.type = type
        self.width = width
        self.decimals = decimals
    }
}

/// The dBASE column types shapefiles use. `N`/`F` columns without decimals are `.integer`.
public enum DBFFieldType: Sendable, Hashable {
    case string, integer, double, logical, date, other
}

/// What one record holds. Record-level problems (NaN/infinite coordinates, a polygon with no usable ring) are
/// `.invalid(reason)` so the importer can skip and count them; structural corruption throws instead.
public enum ShapeRecord: Sendable, Hashable {
    case shape(Shape)
    case null
    case invalid(String)
}

/// The shape type codes of the shapefile specification.
enum ShapeTypeCode {
    static let null: Int32 = 0
    static let multiPatch: Int32 = 31

    /// The family a code belongs to; nil for Null, MultiPatch and codes the specification does not define.
    static func kind(of code: Int32) -> ShapefileGeometryKind? {
        switch code {
        case 1, 11, 21: return .point
        case 8, 18, 28: return .multiPoint
        case 3, 13, 23: return .polyline
        case 5, 15, 25: return .polygon
        default: return nil
        }
    }

    static func isDefined(_ code: Int32) -> Bool {
        code == null || code == multiPatch || kind(of: code) != nil
    }

    /// The specification's name, for messages.
    static func name(of code: Int32) -> String {
        switch code {
        case 0: return "Null"
        case 1: return "Point"
        case 3: return "PolyLine"
        case 5: return "Polygon"
        case 8: return "MultiPoint"
        case 11: return "PointZ"
        case 13: return "PolyLineZ"
        case 15: return "PolygonZ"
        case 18: return "MultiPointZ"
        case 21: return "PointM"
        case 23: return "PolyLineM"
        case 25: return "PolygonM"
        case 28: return "MultiPointM"
        case 31: return "MultiPatch"
        default: return "\(code)"
        }
    }
}
