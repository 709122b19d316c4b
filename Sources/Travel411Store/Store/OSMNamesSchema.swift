import Foundation

/// `travel411_osm_names`: the `name:xx` tags of the OpenStreetMap objects that can name a field of an answer, by
/// element (`W123`). The import writes it (`OSMNamesTable`); a server answering in another language reads it.
package enum OSMNamesSchema {
    package static let tableName = "travel411_osm_names"
    package static let createStatement =
        "CREATE TABLE IF NOT EXISTS \(tableName) (element TEXT PRIMARY KEY, names TEXT NOT NULL) WITHOUT ROWID"
}

/// The `name:xx` tags as the feature tables' `names` column and `travel411_osm_names` keep them: one
/// `xx=name` line each, by language.
package enum OSMNameList {
    package static func encoded(_ names: [String: String]) -> String {
        names.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.oneLine($0.value))" }.joined(separator: "\n")
    }

    package static func decoded(_ text: String) -> [String: String] {
        var names: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else { continue }
            let value = line[line.index(after: equals)...]
            if !value.isEmpty { names[String(line[..<equals])] = String(value) }
        }
        return names
    }

    /// A line break inside a value would start a line of its own.
    private static func oneLine(_ value: String) -> String {
        value.contains("\n") ? value.replacingOccurrences(of: "\n", with: " ") : value
    }
}
