import Travel411Core

/// Each street's country's partition (`NominatimPartitions`), by street number, for the objects' parent streets
/// (`ObjectNearestStreets`), which are looked for among the streets of the object's partition only. The searches ask
/// it at random, so it stays in memory: a byte a street, where the partitions are 0-247 (Nominatim's
/// `settings/country_settings.yaml`), rather than the country's text (`StreetPostcodeTable` keeps that on disk).
struct StreetPartitions: Sendable {
    /// A street the import gave no country, and the streets after the last one with a country.
    private static let unknownByte = UInt8.max
    private var bytes: [UInt8] = []

    init() {}

    /// Street `street`'s partition; `NominatimPartitions.unknown` leaves it unknown.
    mutating func set(_ partition: Int32, forStreet street: UInt32) {
        guard partition != NominatimPartitions.unknown, let byte = UInt8(exactly: partition), byte != Self.unknownByte else {
            return
        }
        let index = Int(street)
        if index >= bytes.count { bytes.append(contentsOf: repeatElement(Self.unknownByte, count: index + 1 - bytes.count)) }
        bytes[index] = byte
    }

    /// Street `street`'s partition, `NominatimPartitions.unknown` where the import gave it no country.
    func partition(ofStreet street: UInt32) -> Int32 {
        guard Int(street) < bytes.count, case let byte = bytes[Int(street)], byte != Self.unknownByte else {
            return NominatimPartitions.unknown
        }
        return Int32(byte)
    }
}
