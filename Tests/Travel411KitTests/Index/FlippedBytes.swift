/// The damaged copies of a coded page that the page codings' robustness tests feed to their readers: about 400
/// positions spread over the bytes, each with one low bit, the high bit and every bit flipped.
enum FlippedBytes {
    static func forEach(of stored: [UInt8], _ body: ([UInt8]) throws -> Void) rethrows {
        for position in stride(from: 0, to: stored.count, by: max(1, stored.count / 400)) {
            for flip: UInt8 in [0x01, 0x80, 0xff] {
                var damaged = stored
                damaged[position] ^= flip
                try body(damaged)
            }
        }
    }
}
