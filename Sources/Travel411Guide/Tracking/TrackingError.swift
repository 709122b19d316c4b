import Foundation
import Travel411Core

/// What stops a track from being read or a region from being kept, worded for the person at the terminal.
public enum TrackingError: Travel411Error, Equatable {
    case cannotOpen(name: String, detail: String)
    case readFailed(name: String, detail: String)
    case binaryInput(name: String)
    case brokenXML(name: String, line: Int, detail: String)
    case noCoordinateColumns(found: String)
    case noTimeColumn(found: String)
    case nothingRead(name: String, detail: String)
    case tooManyRegions(count: Int)
    case invalidRegion(String)
    case duplicateRegion(String)
    case unknownRegion(String, destination: String, known: [String])

    public var description: String {
        switch self {
        case .cannotOpen(let name, let detail): return "cannot open \(name): \(detail)"
        case .readFailed(let name, let detail): return "reading \(name) failed: \(detail)"
        case .binaryInput(let name):
            return "\(name) looks like a binary file, not GPX, NMEA, CSV or JSON Lines; name its format with --input-format if it is one"
        case .brokenXML(let name, let line, let detail):
            return
                "\(name) line \(line): the GPX is broken or cut off (\(DisplayText.sanitized(detail.trimmingCharacters(in: .whitespacesAndNewlines))))"
        case .noCoordinateColumns(let found):
            return "the header has no latitude and longitude columns (lat, latitude, lon, lng, longitude, …); it has: \(found)"
        case .noTimeColumn(let found):
            return "the header has no time column (time, timestamp, datetime, …); it has: \(found)"
        case .nothingRead(let name, let detail): return "no fix could be read from \(name): \(detail)"
        case .tooManyRegions(let count):
            return
                "\(count) regions are more than the \(MonitoredRegion.maximumCount) a device monitors at once; remove some with `travel411 regions remove NAME`"
        case .invalidRegion(let reason): return "invalid region: \(reason)"
        case .duplicateRegion(let name):
            return "a region named '\(DisplayText.sanitized(name))' already exists; remove it first or pick another name"
        case .unknownRegion(let name, let destination, let known):
            let list = known.isEmpty ? "it has none" : "it has " + known.map { "'\($0)'" }.joined(separator: ", ")
            return "\(destination) has no region named '\(DisplayText.sanitized(name))'; \(list)"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotOpen: return .noInput
        case .readFailed: return .ioError
        case .binaryInput, .brokenXML, .noCoordinateColumns, .noTimeColumn, .nothingRead: return .dataError
        case .tooManyRegions, .invalidRegion, .duplicateRegion, .unknownRegion: return .usage
        }
    }
}
