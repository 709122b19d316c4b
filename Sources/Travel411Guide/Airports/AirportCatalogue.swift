import Foundation
import Travel411Core
import Travel411Store

/// The world's airports, looked up by IATA, ICAO or local code, or by nearness to a point.
public struct AirportCatalogue: Sendable {
    public let airports: [Airport]
    public let prominence: AirportProminence
    private let indexByCode: [String: Int]

    public init(airports: [Airport], prominence: AirportProminence = .unknown) {
        self.airports = airports
        self.prominence = prominence
        var index: [String: Int] = [:]
        // Lowest priority first, so IATA codes win when a local code spells the same letters.
        for (offset, airport) in airports.enumerated() {
            if let lid = airport.localIdentifier { index[lid.uppercased()] = index[lid.uppercased()] ?? offset }
        }
        for (offset, airport) in airports.enumerated() { index[airport.icao.uppercased()] = offset }
        for (offset, airport) in airports.enumerated() {
            if let iata = airport.iata { index[iata.uppercased()] = offset }
        }
        indexByCode = index
    }

    /// Loads the CSV at `url`, ranked by `prominence`.
    public static func load(from url: URL, prominence: AirportProminence = .unknown) throws -> AirportCatalogue {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw AirportCatalogueError.unreadable(path: url.path, reason: error.localizedDescription)
        }
        return AirportCatalogue(airports: try AirportsCSV.parse(text, file: url.path), prominence: prominence)
    }

    /// Loads `airports/airports.csv` from the embedded Data/ folder, ranked by the Natural Earth
    /// airports beside it.
    public static func loadEmbedded(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AirportCatalogue {
        let folder = try EmbeddedData.locate(environment: environment).appendingPathComponent("airports")
        let prominence = AirportProminence.load(dbfPath: folder.appendingPathComponent("ne_10m_airports.dbf").path) ?? .unknown
        return try load(from: folder.appendingPathComponent("airports.csv"), prominence: prominence)
    }

    /// The airport with that IATA, ICAO or local code (any case), or nil.
    public func airport(withCode code: String) -> Airport? {
        indexByCode[normalized(code)].map { airports[$0] }
    }

    /// The airport with that code, or an error that suggests the closest known codes.
    public func requireAirport(withCode code: String) throws -> Airport {
        if let airport = airport(withCode: code) { return airport }
        throw AirportCatalogueError.unknownCode(code.trimmingCharacters(in: .whitespaces), suggestions: suggestions(for: code))
    }

    /// Airports the user may have meant: codes one or two edits away (fewest edits first; then codes
    /// of the kind typed, IATA for three letters, ICAO for four; then the more prominent airport),
    /// then prominent airports whose name or city contains the text.
    public func suggestions(for text: String, limit: Int = 5) -> [Airport] {
        let wanted = normalized(text)
        guard !wanted.isEmpty, limit > 0 else { return [] }
        let maximumEdits = wanted.count <= 3 ? 1 : 2
        var scored: [(edits: Int, otherKind: Int, rank: Int, code: String, offset: Int)] = []
        for (offset, airport) in airports.enumerated() {
            // (edits, 0 for a code of the kind typed else 1), compared as a pair.
            var best: (edits: Int, otherKind: Int)?
            for code in [airport.iata, airport.icao].compactMap({ $0 }) where abs(code.count - wanted.count) <= maximumEdits {
                let candidate = (edits: EditDistance.levenshtein(wanted, code.uppercased()), otherKind: code.count == wanted.count ? 0 : 1)
                if candidate.edits <= maximumEdits, best.map({ candidate < $0 }) ?? true { best = candidate }
            }
            if let best { scored.append((best.edits, best.otherKind, prominence.rank(of: airport), airport.code, offset)) }
        }
        scored.sort { ($0.edits, $0.otherKind, $0.rank, $0.code) < ($1.edits, $1.otherKind, $1.rank, $1.code) }
        var result = scored.prefix(limit).map { airports[$0.offset] }
        if result.count < limit, wanted.count >= 3 {
            let needle = text.trimmingCharacters(in: .whitespaces)
            let named = airports.filter { airport in
                airport.iata != nil && !result.contains(airport)
                    && (airport.name.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
                        || airport.city.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil)
            }
            result += named.sorted { prominence.rank(of: $0) < prominence.rank(of: $1) }.prefix(limit - result.count)
        }
        return result
    }

    /// The `limit` airports nearest to `point`, nearest first.
    public func nearest(to point: Coordinate, limit: Int) -> [AirportDistance] {
        guard limit > 0 else { return [] }
        var measured = airports.map { airport in
            AirportDistance(
                airport: airport,
                distanceMetres: GreatCircle.distance(from: point, to: airport.coordinate),
                bearingDegrees: GreatCircle.initialBearing(from: point, to: airport.coordinate))
        }
        measured.sort { $0.distanceMetres < $1.distanceMetres }
        return Array(measured.prefix(limit))
    }

    private func normalized(_ code: String) -> String {
        code.trimmingCharacters(in: .whitespaces).uppercased()
    }
}

/// An airport seen from a point: how far, and which way to go.
public struct AirportDistance: Hashable, Sendable {
    public var airport: Airport
    public var distanceMetres: Double
    /// Initial bearing from the point to the airport.
    public var bearingDegrees: Double
    public var compassPoint: CompassPoint { CompassPoint(bearing: bearingDegrees) }
}

public enum AirportCatalogueError: Error, Equatable, LocalizedError, CustomStringConvertible {
    case unknownCode(String, suggestions: [Airport])
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .unknownCode(let code, let suggestions):
            let known = "no airport has the IATA or ICAO code '\(code)'"
            guard !suggestions.isEmpty else { return known }
            let list = suggestions.map { "\($0.codes) (\($0.name), \($0.countryCode))" }.joined(separator: ", ")
            return "\(known); did you mean \(list)?"
        case .unreadable(let path, let reason):
            return "cannot read the airport catalogue \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

extension AirportCatalogueError: Travel411Error {
    public var exitStatus: ExitStatus {
        switch self {
        case .unknownCode: return .failure
        case .unreadable: return .noInput
        }
    }
}
