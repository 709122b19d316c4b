import Foundation
import Travel411Core

/// The postcode and country of each OpenStreetMap street, by street number, as the import decides them once the
/// extract is read (`OSMStreetPostcodes`, `OSMCountryOfPoint`), for the streets' records stored after the streets'
/// tiles. They wait on disk (`OSMSpillFile`), a record for each street that has either, in street order, and come
/// back once in that order; memory keeps each postcode and country once. Kept in memory, four bytes a street
/// each, they grew with the extract's streets (issue 35).
final class StreetPostcodeTable {
    private let file: OSMSpillFile
    /// The postcodes and countries, each once: a record holds 1 + its place here, 0 for none.
    private var texts: [String] = []
    private var textNumbers: [String: UInt32] = [:]
    /// The last street given, which the next must come after.
    private var lastStreet: Int64 = -1
    private let partitionOfCountry: NominatimPartitions
    /// Each street's country's partition, kept in memory for the objects' parent streets.
    private(set) var partitions = StreetPartitions()

    /// Whether no street has a postcode or a country.
    var isEmpty: Bool { texts.isEmpty }

    /// `path`: where the file is created, beside the database being built.
    init(path: String, partitions: NominatimPartitions = .embedded) throws {
        file = try OSMSpillFile(path: path)
        partitionOfCountry = partitions
    }

    /// The postcode's number's top bit: the postcode is the street's own tag (`StreetPostcodeField.own`).
    private static let ownBit: UInt32 = 1 << 31

    /// Street `street`'s postcode and country; the streets come in increasing order. `own`: the postcode is the
    /// street's own `addr:postcode`, not one computed for it.
    func set(postcode: String?, country: String?, own: Bool = false, forStreet street: UInt32) throws {
        guard postcode != nil || country != nil else { return }
        guard Int64(street) > lastStreet else {
            throw ImportError("street \(street) came after street \(lastStreet) to the streets' postcodes")
        }
        lastStreet = Int64(street)
        if country != nil { partitions.set(partitionOfCountry.partition(of: country), forStreet: street) }
        let (postcode, country) = (number(postcode), number(country))
        try file.append {
            $0.write(street)
            $0.write(own && postcode != 0 ? postcode | Self.ownBit : postcode)
            $0.write(country)
        }
    }

    private func number(_ text: String?) -> UInt32 {
        guard let text else { return 0 }
        if let known = textNumbers[text] { return known }
        texts.append(text)
        textNumbers[text] = UInt32(texts.count)
        return UInt32(texts.count)
    }

    private func text(_ number: UInt32) -> String? { number == 0 ? nil : texts[Int(number) - 1] }

    /// Each street's postcode and country, nil where it has none, and whether the postcode is its own, from street 0
    /// to `streetCount - 1`; the file is gone afterwards.
    func forEach(streetCount: Int, _ body: (_ postcode: String?, _ country: String?, _ own: Bool) throws -> Void) throws {
        defer { file.discard() }
        let read = { (reader: inout OSMSpillReader) in
            (street: try reader.uint32(), postcode: try reader.uint32(), country: try reader.uint32())
        }
        var next = try file.next(read)
        for street in 0..<streetCount {
            guard let entry = next, entry.street == street else {
                try body(nil, nil, false)
                continue
            }
            try body(text(entry.postcode & ~Self.ownBit), text(entry.country), entry.postcode & Self.ownBit != 0)
            next = try file.next(read)
        }
        guard next == nil else { throw ImportError("the streets' postcodes name street \(next?.street ?? 0) of \(streetCount)") }
    }
}
