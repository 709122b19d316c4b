import Travel411Core
import Travel411Geocoder

/// JSON Lines → output rows: one row per non-blank line. A line that is not a JSON object, or
/// lacks a usable coordinate, still gets its row, flagged; JSON outputs keep its text as "input".
final class JSONLinesChunkProcessor: ChunkProcessor {
    private let columns: CoordinateColumns
    private let encoder: RowEncoder
    private let coordinates = CoordinateReader()
    private let printer: any PlacemarkPrinter
    /// The printer when it is the geocoder, for rows written by code specialised for it (`DelimitedChunkProcessor`).
    private let geocoder: ReverseGeocoder?
    private var members: [JSONMember] = []
    private let keyScratch = GrowableByteArray(capacity: 256)

    init(columns: CoordinateColumns, encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.columns = columns
        self.encoder = encoder
        self.printer = printer
        geocoder = printer as? ReverseGeocoder
        members.reserveCapacity(32)
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        if let geocoder { return process(chunk, into: output, printer: geocoder) }
        return process(chunk, into: output, printer: printer)
    }

    private func process<Printer: PlacemarkPrinter>(_ chunk: InputChunk, into output: GrowableByteArray, printer: Printer) -> RowCounts {
        var counts = RowCounts()
        var members: [JSONMember] = []
        swap(&members, &self.members)
        defer { swap(&members, &self.members) }
        let bytes = UnsafePointer(chunk.buffer.base)
        let end = chunk.length
        var line = chunk.unitsBefore
        var index = 0
        while index < end {
            var lineEnd = index
            while lineEnd < end && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let lineStart = index
            index = lineEnd + 1
            line += 1
            let start = JSONScanner.skipWhitespace(bytes, lineStart, lineEnd)
            var stop = lineEnd
            while stop > start, JSONScanner.isWhitespace(bytes[stop - 1]) { stop -= 1 }
            if start == stop { continue }
            counts.rows += 1

            var isParsed = false
            var point: RowPoint?
            var problem: String?
            do {
                let objectEnd = try JSONScanner.scanObjectMembers(bytes, start, stop, into: &members)
                guard objectEnd == stop else {
                    throw JSONSyntaxError(reason: "unexpected text after the object", offset: objectEnd)
                }
                isParsed = true
                switch locateCoordinate(members, bytes) {
                case .point(let found): point = found
                case .problem(let message): problem = message
                }
            } catch let error as JSONSyntaxError {
                problem = "not a JSON object (\(error.reason) at column \(error.offset - lineStart + 1))"
            } catch {
                problem = "not a JSON object"
            }
            if point == nil { counts.errors += 1 }
            let lineNumber = line
            members.withUnsafeBufferPointer { memberBuffer in
                encoder.appendGeocodedRow(
                    bytes, input: isParsed ? .members(memberBuffer) : .unparsed(start..<stop), point: point,
                    problem: "line \(lineNumber): \(problem ?? "no coordinate")", printer: printer, to: output)
            }
        }
        return counts
    }

    private func locateCoordinate(_ members: [JSONMember], _ bytes: UnsafePointer<UInt8>) -> CoordinateReader.Reading {
        var latitude: (cell: InputCell, rank: Int)?
        var longitude: (cell: InputCell, rank: Int)?
        for member in members {
            guard let (role, rank) = matchKey(member, bytes) else { continue }
            let cell = InputCell(start: member.valueStart, end: member.valueEnd, kind: .json)
            switch role {
            case .latitude where latitude.map({ rank < $0.rank }) ?? true: latitude = (cell, rank)
            case .longitude where longitude.map({ rank < $0.rank }) ?? true: longitude = (cell, rank)
            default: break
            }
        }
        guard let latitude else { return .problem("no latitude key") }
        guard let longitude else { return .problem("no longitude key") }
        return coordinates.read(latitude: latitude.cell, longitude: longitude.cell, in: bytes)
    }

    private func matchKey(_ member: JSONMember, _ bytes: UnsafePointer<UInt8>) -> (role: CoordinateColumns.Role, rank: Int)? {
        if !member.keyHasEscapes {
            return columns.match(bytes + member.keyStart + 1, count: member.keyEnd - member.keyStart - 2)
        }
        keyScratch.removeAll()
        JSONScanner.decodeString(bytes, from: member.keyStart, to: member.keyEnd, into: keyScratch)
        return columns.match(keyScratch.base, count: keyScratch.count)
    }
}
