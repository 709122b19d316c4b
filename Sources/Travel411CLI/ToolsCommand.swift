/// The commands `travel411-tools` runs and `travel411` hands over to it: all but `where`, `import` and `serve`.
/// `travel411` lists them in its help from here, and `travel411-tools` names and describes them from here, so the
/// two say the same.
package enum ToolsCommand: String, CaseIterable, Sendable {
    case destination
    case moveCity = "move-city"
    case region, distance, airports, track, regions, quakes, map

    package var abstract: String {
        switch self {
        case .destination: "Create, list, show, choose, rename and delete destinations (an airport plus a city)."
        case .moveCity: "Move the City pin and rename it from the new spot; or undo a move, or list them."
        case .region: "The map region (centre and span) that shows every pin of a destination."
        case .distance: "How far you are from the City (or the airport), as the app said it."
        case .airports: "Look up airports in the catalogue (Data/airports/airports.csv, 28k airports)."
        case .track: "Follow a recorded track or a live GPS stream: distances to the City, and region enter and exit."
        case .regions: "The circular regions `track` watches for enter and exit, kept per destination."
        case .quakes: "List USGS earthquake feeds, each event geocoded with our places database."
        case .map: "Draw the destination's map as SVG, PNG or PDF, or in the terminal."
        }
    }

    /// Whether `travel411 ARGUMENTS` is for `travel411-tools`: `travel411 map …`, `travel411 help map`, and what
    /// lists every command's options: the completion scripts and the help dump the manual is made from (Scripts/man).
    package static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if Self(rawValue: first) != nil { return true }
        if first == "help", arguments.count > 1, Self(rawValue: arguments[1]) != nil { return true }
        return first.hasPrefix("--generate-completion-script") || first == "--experimental-dump-help"
    }
}
