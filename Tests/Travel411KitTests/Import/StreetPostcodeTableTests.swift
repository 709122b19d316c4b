import Foundation
import Testing

import Travel411Core
@testable import Travel411Import

/// The streets' postcodes and countries as the import keeps them: on disk in street order, read back once with
/// every street from the first, each postcode and country kept once in memory.
struct StreetPostcodeTableTests {
    private func table() throws -> StreetPostcodeTable {
        try StreetPostcodeTable(path: NSTemporaryDirectory() + "travel411-street-postcodes-test-\(UUID().uuidString)")
    }

    @Test func givesBackWhatWasSetAndNothingElse() throws {
        let table = try table()
        #expect(table.isEmpty)
        try table.set(postcode: "00130", country: "FI", forStreet: 2)
        try table.set(postcode: nil, country: nil, forStreet: 3)
        try table.set(postcode: "00100", country: "FI", forStreet: 7)
        try table.set(postcode: nil, country: "EE", forStreet: 8)
        try table.set(postcode: "00100", country: nil, forStreet: 12)
        try table.set(postcode: "9486", country: "LI", own: true, forStreet: 13)
        #expect(!table.isEmpty)
        var read: [[String?]] = []
        try table.forEach(streetCount: 14) { read.append([$0, $1, $2 ? "own" : nil]) }
        var expected = [[String?]](repeating: [nil, nil, nil], count: 14)
        expected[2] = ["00130", "FI", nil]
        expected[7] = ["00100", "FI", nil]
        expected[8] = [nil, "EE", nil]
        expected[12] = ["00100", nil, nil]
        expected[13] = ["9486", "LI", "own"]
        #expect(read == expected)
    }

    @Test func refusesAStreetOutOfOrder() throws {
        let table = try table()
        try table.set(postcode: "9490", country: "LI", forStreet: 5)
        #expect(throws: ImportError.self) { try table.set(postcode: "9490", country: "LI", forStreet: 5) }
        #expect(throws: ImportError.self) { try table.set(postcode: "9490", country: "LI", forStreet: 4) }
    }

    @Test func aStreetBeyondTheCountIsAnError() throws {
        let table = try table()
        try table.set(postcode: "9490", country: "LI", forStreet: 5)
        #expect(throws: ImportError.self) { try table.forEach(streetCount: 3) { _, _, _ in } }
    }
}
