import Travel411Core

/// Reads a row's latitude and longitude from their input cells, or says why it cannot.
struct CoordinateReader {
    enum Reading {
        case point(RowPoint)
        case problem(String)
    }

    /// Longer values are cut in messages: a message quotes the value to help, not to copy it.
    private static let quotedValueLimit = 80
    private let scratch = GrowableByteArray(capacity: 256)
    private let decimalMark: DecimalMark

    init(decimalMark: DecimalMark = .point) {
        self.decimalMark = decimalMark
    }

    /// `read`'s common case, two plain numbers within range, as the latitude and the longitude; nil for anything else
    /// (which `read` reads, and words). Inlined into a chunk's loop (`PointsAhead`): a call to `read` and its
    /// `Reading` cost a row about as much as this.
    @inline(__always)
    func plainPoint(latitude: InputCell, longitude: InputCell, in bytes: UnsafePointer<UInt8>) -> SIMD2<Double>? {
        guard latitude.kind == .delimitedPlain, longitude.kind == .delimitedPlain,
            let latitudeValue = decimalMark.parse(bytes, from: latitude.start, to: latitude.end),
            let longitudeValue = decimalMark.parse(bytes, from: longitude.start, to: longitude.end),
            latitudeValue >= -90, latitudeValue <= 90, longitudeValue >= -180, longitudeValue <= 180
        else { return nil }
        return SIMD2(latitudeValue, longitudeValue)
    }

    package func read(latitude: InputCell, longitude: InputCell, in bytes: UnsafePointer<UInt8>) -> Reading {
        // Nearly every row: two plain numbers within range, read without the messages' `Result`s.
        if let point = plainPoint(latitude: latitude, longitude: longitude, in: bytes) {
            return .point(RowPoint(latitude: point.x, longitude: point.y, latitudeText: latitude, longitudeText: longitude))
        }
        let latitudeValue: Double
        switch value(of: latitude, named: "latitude", in: bytes) {
        case .success(let value): latitudeValue = value
        case .failure(let problem): return .problem(problem.message)
        }
        let longitudeValue: Double
        switch value(of: longitude, named: "longitude", in: bytes) {
        case .success(let value): longitudeValue = value
        case .failure(let problem): return .problem(problem.message)
        }
        guard latitudeValue.isFinite, latitudeValue >= -90, latitudeValue <= 90 else {
            return .problem(CoordinateError.latitudeOutOfRange(latitudeValue).description)
        }
        guard longitudeValue.isFinite, longitudeValue >= -180, longitudeValue <= 180 else {
            return .problem(CoordinateError.longitudeOutOfRange(longitudeValue).description)
        }
        return .point(RowPoint(latitude: latitudeValue, longitude: longitudeValue, latitudeText: latitude, longitudeText: longitude))
    }

    private struct Problem: Error { let message: String }

    private func value(of cell: InputCell, named name: String, in bytes: UnsafePointer<UInt8>) -> Result<Double, Problem> {
        switch cell.kind {
        case .missing:
            return .failure(Problem(message: "\(name) is missing"))
        case .delimitedPlain:
            return number(bytes, cell.start, cell.end, named: name)
        case .delimitedQuoted:
            scratch.removeAll()
            DelimitedRecordSplitter.decodeQuoted(bytes, from: cell.start, to: cell.end, into: scratch)
            return number(scratch.base, 0, scratch.count, named: name)
        case .json:
            switch bytes[cell.start] {
            case UInt8(ascii: "\""):
                scratch.removeAll()
                JSONScanner.decodeString(bytes, from: cell.start, to: cell.end, into: scratch)
                return number(scratch.base, 0, scratch.count, named: name)
            case UInt8(ascii: "n"):
                return .failure(Problem(message: "\(name) is null"))
            default:
                return number(bytes, cell.start, cell.end, named: name)
            }
        }
    }

    @inline(__always)
    private func number(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int, named name: String) -> Result<Double, Problem> {
        if let value = decimalMark.parse(bytes, from: start, to: end) { return .success(value) }
        var trimmedStart = start
        while trimmedStart < end, DecimalParser.isBlank(bytes[trimmedStart]) { trimmedStart += 1 }
        if trimmedStart == end { return .failure(Problem(message: "\(name) is empty")) }
        let shown = min(end - start, Self.quotedValueLimit)
        var text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: shown), as: UTF8.self)
        if shown < end - start { text += "…" }
        // Say what a decimal comma looks like to someone who seems to have tried one.
        let hint = decimalMark == .pointOrComma && text.contains(",") ? " (one decimal comma between digits, as in 51,47)" : ""
        return .failure(Problem(message: "\(name) '\(text)' is not a number\(hint)"))
    }
}
