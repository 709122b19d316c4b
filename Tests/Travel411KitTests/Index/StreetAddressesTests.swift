import Foundation
import Testing

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// A street's list of addresses as the Helsinki import wrote it, read back, written again the same, and refused
/// when damaged.
@Suite struct StreetAddressesTests {
    static func read(_ bytes: [UInt8], near x: Double, reach: Double) -> [StreetAddresses.Entry]? {
        bytes.withUnsafeBufferPointer { field in
            StreetAddresses(field).map { list in
                var found: [StreetAddresses.Entry] = []
                list.forEach(nearLongitude: x, reach: reach) { found.append($0) }
                return found
            }
        }
    }

    /// The longest list of the Helsinki import, as stored.
    static func longestList() throws -> [UInt8] {
        let path = try OSMExtractImportTests.helsinkiImport.get().path
        // One record per street.
        let streetCount = try NominatimStreetSearchTests.recordCount(path, of: .streetAddresses, pageLevel: 3)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let addresses = try #require(geocoder.lookup.streetAddresses())
        var longest: [UInt8] = []
        for street in 0..<streetCount {
            if let field = addresses.bytes(street, 0), field.count > longest.count { longest = Array(field) }
        }
        withExtendedLifetime(geocoder) {}
        return longest
    }

    @Test func aListReadsBackByLongitudeAndWritesTheSame() throws {
        let field = try Self.longestList()
        let all = try #require(Self.read(field, near: 0, reach: 360))
        #expect(all.count > 20)
        #expect(StreetAddresses.field(all) == field)
        let longitudes = all.compactMap { $0.centre?.longitude }
        #expect(longitudes == longitudes.sorted())
        // Those within 0.001° of longitude of one of them, and no other.
        let middle = try #require(all[all.count / 2].centre?.longitude)
        let near = try #require(Self.read(field, near: middle, reach: 0.001))
        #expect(near.map(\.object) == all.filter { abs(($0.centre?.longitude ?? middle) - middle) <= 0.001 }.map(\.object))
    }

    @Test func aDamagedListIsRefused() throws {
        let field = try Self.longestList()
        // Cut short: not a whole number of entries.
        #expect(Self.read(Array(field.dropLast(3)), near: 24.95, reach: 1) == nil)
        #expect(Self.read([1, 2, 3], near: 24.95, reach: 1) == nil)
        // More entries without a centre than the list holds.
        var damaged = field
        damaged.replaceSubrange(0..<4, with: [0xff, 0xff, 0, 0])
        #expect(Self.read(damaged, near: 24.95, reach: 1) == nil)
        // An empty field (a street without addresses) is no list.
        #expect(Self.read([], near: 24.95, reach: 1) == nil)
    }
}
