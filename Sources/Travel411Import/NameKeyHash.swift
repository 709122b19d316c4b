/// A 64-bit hash of a name's match key (`OSMParentStreets.matchKey`), by which the parent streets' sweep tells
/// whether an `addr:street` names a street, in place of a number per distinct key, which had to be kept in memory
/// for the whole read (issue 35). FNV-1a: the same on every run and machine, unlike the standard library's `Hasher`,
/// which is seeded per process; each byte's step is one-to-one, so keys of one length differing in one byte never
/// share a hash.
///
/// Two different keys sharing a hash would make an address match a street of another name, but only where both lie
/// within 0.015° of each other: with a few thousand distinct names around a point, the chance is about 10^-13 there,
/// and about 10^-6 over all the planet's land.
enum NameKeyHash {
    static func of(_ key: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
