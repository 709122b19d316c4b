import CShapelib
import Foundation

/// How prominent an airport is, from Natural Earth's ne_10m_airports (891 airports, each with a
/// `scalerank`: 2 for the world's hubs, up to 9). Used to rank suggestions, so that a mistyped
/// "LHQ" suggests Heathrow before a grass strip one letter away.
public struct AirportProminence: Sendable {
    private let scaleRankByCode: [String: Int]

    public init(scaleRankByCode: [String: Int]) {
        self.scaleRankByCode = scaleRankByCode
    }

    public static let unknown = AirportProminence(scaleRankByCode: [:])

    /// Reads the attribute table `ne_10m_airports.dbf`; nil when it cannot be read.
    public static func load(dbfPath: String) -> AirportProminence? {
        guard let handle = DBFOpen(dbfPath, "rb") else { return nil }
        defer { DBFClose(handle) }
        let rankField = DBFGetFieldIndex(handle, "scalerank")
        let iataField = DBFGetFieldIndex(handle, "iata_code")
        let icaoField = DBFGetFieldIndex(handle, "gps_code")
        guard rankField >= 0, iataField >= 0, icaoField >= 0 else { return nil }
        var ranks: [String: Int] = [:]
        for record in 0..<DBFGetRecordCount(handle) where DBFIsAttributeNULL(handle, record, rankField) == 0 {
            let rank = Int(DBFReadIntegerAttribute(handle, record, rankField))
            for field in [iataField, icaoField] {
                guard let text = DBFReadStringAttribute(handle, record, field) else { continue }
                let code = String(cString: text).trimmingCharacters(in: .whitespaces).uppercased()
                if !code.isEmpty { ranks[code] = min(ranks[code] ?? rank, rank) }
            }
        }
        return AirportProminence(scaleRankByCode: ranks)
    }

    /// Lower is more prominent; airports Natural Earth does not list rank after all that it does.
    public func rank(of airport: Airport) -> Int {
        let ranks = [airport.iata, Optional(airport.icao)].compactMap { $0.flatMap { scaleRankByCode[$0.uppercased()] } }
        return ranks.min() ?? 100
    }
}
