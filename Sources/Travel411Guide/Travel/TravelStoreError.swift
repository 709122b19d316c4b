import Foundation
import Travel411Core

/// What can go wrong with the travel state, worded for the person at the terminal.
public enum TravelStoreError: Error, Equatable, LocalizedError, CustomStringConvertible {
    case isPlacesDatabase(path: String)
    case notAStateFile(path: String)
    case notADatabase(path: String)
    case corrupt(path: String, detail: String)
    case locked(path: String, waitedMilliseconds: Int32)
    case cannotOpen(path: String, detail: String)
    case newerSchema(path: String, found: Int, supported: Int)
    case unknownDestination(String, suggestions: [String])
    case noDestinations
    case noCurrentDestination(known: [String])
    case destinationExists(String)
    case invalidDestinationName(String)
    case nothingToUndo(destination: String)

    public var description: String {
        switch self {
        case .isPlacesDatabase(let path):
            return "\(path) is the places database; the travel state needs a file of its own (pass --state FILE or set TRAVEL411_STATE)"
        case .notAStateFile(let path):
            return "\(path) is a SQLite database but not a travel411 state file; pass --state with another path"
        case .notADatabase(let path):
            return
                "the state file \(path) is not a SQLite database (damaged or some other file); move it aside or pass --state with another path"
        case .corrupt(let path, let detail):
            return "the state file \(path) is corrupt (\(detail)); move it aside or pass --state with another path"
        case .locked(let path, let waited):
            return "the state file \(path) stayed locked by another process for \(Double(waited) / 1000) s; try again when it has finished"
        case .cannotOpen(let path, let detail):
            return "cannot open the state file \(path): \(detail)"
        case .newerSchema(let path, let found, let supported):
            return
                "the state file \(path) has schema version \(found), newer than this travel411 understands (\(supported)); upgrade travel411"
        case .unknownDestination(let name, let suggestions):
            let known = "no destination is named '\(name)'"
            guard !suggestions.isEmpty else { return known + "; `travel411 destination list` shows them" }
            return known + "; did you mean " + suggestions.map { "'\($0)'" }.joined(separator: " or ") + "?"
        case .noDestinations:
            return "there are no destinations; create one with `travel411 destination create NAME --airport CODE`"
        case .noCurrentDestination(let known):
            return "no destination is current; choose one of \(known.joined(separator: ", ")) with `travel411 destination use NAME`"
        case .destinationExists(let name):
            return "a destination named '\(name)' already exists"
        case .invalidDestinationName(let reason):
            return "invalid destination name: \(reason)"
        case .nothingToUndo(let destination):
            return "\(destination) has no city move to undo"
        }
    }

    public var errorDescription: String? { description }
}

extension TravelStoreError: Travel411Error {
    public var exitStatus: ExitStatus {
        switch self {
        case .isPlacesDatabase, .notAStateFile, .notADatabase, .corrupt, .newerSchema: return .dataError
        case .locked: return .temporaryFailure
        case .cannotOpen: return .cannotCreate
        case .invalidDestinationName: return .usage
        case .unknownDestination, .noDestinations, .noCurrentDestination, .destinationExists, .nothingToUndo: return .failure
        }
    }
}
