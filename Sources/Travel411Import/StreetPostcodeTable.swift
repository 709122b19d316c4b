/// The postcode of each OpenStreetMap street, by street number, as the import decides them
/// (`OSMStreetPostcodes`): four bytes a street, the postcodes themselves kept once each. A dictionary from
/// street to String took about 50 bytes a street with a postcode, which grows with a country's streets.
struct StreetPostcodeTable {
    /// Per street number, 1 + the postcode's place in `codes`; 0 for a street without one.
    private var entries: [UInt32] = []
    private var codes: [String] = []
    private var codeNumbers: [String: UInt32] = [:]

    var isEmpty: Bool { codes.isEmpty }

    mutating func set(_ postcode: String, forStreet street: UInt32) {
        let number: UInt32
        if let known = codeNumbers[postcode] {
            number = known
        } else {
            codes.append(postcode)
            number = UInt32(codes.count)
            codeNumbers[postcode] = number
        }
        if Int(street) >= entries.count { entries.append(contentsOf: repeatElement(0, count: Int(street) + 1 - entries.count)) }
        entries[Int(street)] = number
    }

    /// Each street's value through `transform`, called once per distinct value (a street's country's partition, asked
    /// for each street a search meets); `none` for a street without one.
    func lookup<T>(none: T, _ transform: (String) -> T) -> (UInt32) -> T {
        let values = codes.map(transform), entries = entries
        return { street in
            guard Int(street) < entries.count, case let number = entries[Int(street)], number > 0 else { return none }
            return values[Int(number) - 1]
        }
    }

    subscript(street: UInt32) -> String? {
        guard Int(street) < entries.count, case let number = entries[Int(street)], number > 0 else { return nil }
        return codes[Int(number) - 1]
    }
}
