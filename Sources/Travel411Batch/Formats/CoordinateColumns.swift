import Foundation
import Travel411Store

/// Recognises which column (CSV/TSV header) or key (JSON) holds latitude and longitude.
///
/// Without options, common names are matched case-insensitively; earlier names in each list win,
/// so a file with both `x,y` (often projected metres) and `lat,lon` uses `lat,lon`.
/// An option names the column exactly (an exact match wins over a case-insensitive one).
package struct CoordinateColumns: Sendable {
    enum Role { case latitude, longitude }

    static let latitudeNames = [
        "lat", "latitude", "lat_dd", "latitude_dd", "lat_deg", "latitude_deg", "lat_wgs84", "latitude_wgs84",
        "decimallatitude", "gps_lat", "gps_latitude", "point_lat", "start_lat", "y_coord", "coord_y", "ycoord", "point_y", "y",
    ]
    static let longitudeNames = [
        "lon", "lng", "long", "longitude", "lon_dd", "lng_dd", "long_dd", "longitude_dd", "lon_deg", "longitude_deg",
        "lon_wgs84", "longitude_wgs84", "decimallongitude", "gps_lon", "gps_lng", "gps_long", "gps_longitude",
        "point_lon", "point_lng", "start_lon", "start_lng", "x_coord", "coord_x", "xcoord", "point_x", "x",
    ]

    private let latitudeCandidates: [[UInt8]]
    private let longitudeCandidates: [[UInt8]]
    private let explicitLatitude: [UInt8]?
    private let explicitLongitude: [UInt8]?

    package init(latitudeName: String?, longitudeName: String?) {
        explicitLatitude = latitudeName.map { Array($0.utf8) }
        explicitLongitude = longitudeName.map { Array($0.utf8) }
        latitudeCandidates = latitudeName.map { [Self.lowercased(Array($0.utf8))] } ?? Self.latitudeNames.map { Array($0.utf8) }
        longitudeCandidates = longitudeName.map { [Self.lowercased(Array($0.utf8))] } ?? Self.longitudeNames.map { Array($0.utf8) }
    }

    var describesLatitudeExplicitly: Bool { explicitLatitude != nil }
    var describesLongitudeExplicitly: Bool { explicitLongitude != nil }

    /// The role of a column name and its rank (lower is better), or nil if it is neither.
    func match(_ name: UnsafePointer<UInt8>, count: Int) -> (role: Role, rank: Int)? {
        // Exact matches of explicit names rank above case-insensitive ones (rank -1 vs 0).
        if let explicitLatitude, Self.equal(name, count, explicitLatitude) { return (.latitude, -1) }
        if let explicitLongitude, Self.equal(name, count, explicitLongitude) { return (.longitude, -1) }
        guard count > 0, count <= 24 else { return nil }
        for (rank, candidate) in latitudeCandidates.enumerated() where Self.equalIgnoringCase(name, count, candidate) {
            return (.latitude, rank)
        }
        for (rank, candidate) in longitudeCandidates.enumerated() where Self.equalIgnoringCase(name, count, candidate) {
            return (.longitude, rank)
        }
        return nil
    }

    func match(_ name: String) -> (role: Role, rank: Int)? {
        var trimmed = name.trimmingCharacters(in: .whitespaces)
        return trimmed.withUTF8 { utf8 in
            guard let start = utf8.baseAddress else { return nil }
            return match(start, count: utf8.count)
        }
    }

    /// Indexes of the best latitude and longitude columns among `names`.
    package func locate(in names: [String]) -> (latitude: Int?, longitude: Int?) {
        var best: (latitude: (index: Int, rank: Int)?, longitude: (index: Int, rank: Int)?) = (nil, nil)
        for (index, name) in names.enumerated() {
            guard let (role, rank) = match(name) else { continue }
            switch role {
            case .latitude where best.latitude.map({ rank < $0.rank }) ?? true: best.latitude = (index, rank)
            case .longitude where best.longitude.map({ rank < $0.rank }) ?? true: best.longitude = (index, rank)
            default: break
            }
        }
        return (best.latitude?.index, best.longitude?.index)
    }

    private static func lowercased(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 }
    }

    @inline(__always)
    private static func equal(_ name: UnsafePointer<UInt8>, _ count: Int, _ candidate: [UInt8]) -> Bool {
        guard candidate.count == count else { return false }
        for index in 0..<count where name[index] != candidate[index] { return false }
        return true
    }

    @inline(__always)
    private static func equalIgnoringCase(_ name: UnsafePointer<UInt8>, _ count: Int, _ lowercasedCandidate: [UInt8]) -> Bool {
        guard lowercasedCandidate.count == count else { return false }
        for index in 0..<count {
            let byte = name[index]
            let folded = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
            if folded != lowercasedCandidate[index] { return false }
        }
        return true
    }
}
