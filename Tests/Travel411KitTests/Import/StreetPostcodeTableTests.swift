import Testing

@testable import Travel411Import

/// The streets' postcodes as the import keeps them: any street number, each postcode stored once.
struct StreetPostcodeTableTests {
    @Test func answersWhatWasSetAndNothingElse() {
        var table = StreetPostcodeTable()
        #expect(table.isEmpty && table[0] == nil)
        table.set("00100", forStreet: 7)
        table.set("00130", forStreet: 2)
        table.set("00100", forStreet: 12)
        #expect(!table.isEmpty)
        #expect(table[7] == "00100" && table[2] == "00130" && table[12] == "00100")
        #expect(table[0] == nil && table[8] == nil && table[13] == nil && table[UInt32.max] == nil)
        table.set("00140", forStreet: 7)
        #expect(table[7] == "00140" && table[12] == "00100")
    }
}
