/// A line that an object's `addr:place` gives its Nominatim address (`OSMAddressPlaceParents` finds it at import): the
/// place parenting the object, which `complete_address_details` (`nominatim_api/results.py`, Nominatim 5.3) lists as a
/// line of its own under its `get_label_tag` key (`neighbourhood: Улан микрорайон`) whatever holds the object.
public struct AddressPlaceLine: Hashable, Sendable {
    /// Nominatim's address rank of the line, which places it among the others.
    public var rank: Int
    /// The address's key (`neighbourhood`, `locality`).
    public var key: String
    public var name: String

    public init(rank: Int, key: String, name: String) {
        self.rank = rank
        self.key = key
        self.name = name
    }

    /// As an object's record stores them (`PlacesSchema.ObjectField.placeLines`): `rank key name`, one a line.
    package static func text(_ lines: [AddressPlaceLine]) -> String {
        lines.map { "\($0.rank) \($0.key) \($0.name)" }.joined(separator: "\n")
    }

    /// The lines `text(_:)` wrote; none from an empty or malformed field.
    package static func lines(_ text: String) -> [AddressPlaceLine] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let rank = Int(parts[0]), !parts[1].isEmpty, !parts[2].isEmpty else { return nil }
            return AddressPlaceLine(rank: rank, key: String(parts[1]), name: String(parts[2]))
        }
    }
}
