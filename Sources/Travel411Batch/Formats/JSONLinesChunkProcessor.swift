import Travel411Core
import Travel411Geocoder
import Travel411Store

/// JSON Lines → output rows: one row per non-blank line. A line that is not a JSON object, or
/// lacks a usable coordinate, still gets its row, flagged; JSON outputs keep its text as "input".
final class JSONLinesChunkProcessor: ChunkProcessor {
    private let columns: CoordinateColumns
    private let encoder: RowEncoder
    private let coordinates = CoordinateReader()
    private let printer: any PlacemarkPrinter
    /// The printer when it is the geocoder, for rows written by code specialised for it (`DelimitedChunkProcessor`).
    private let geocoder: ReverseGeocoder?
    private let keyScratch = GrowableByteArray(capacity: 256)
    /// The chunk's non-blank lines, scanned before any is answered, and their objects' members side by side: the
    /// rows are answered in the order of their places (`SpatialRowOrder`), as CSV's are.
    private var lines: [ScannedLine] = []
    private var members: [JSONMember] = []
    private var lineMembers: [JSONMember] = []
    private let rowOrder = SpatialRowOrder()
    private let reorderedAnswers = GrowableByteArray(capacity: 1 << 20)

    /// A non-blank line: where its text is, its members (`memberCount` -1: not a JSON object), and its point or
    /// what is wrong with it.
    private struct ScannedLine {
        var start: Int
        var stop: Int
        var line: Int
        var firstMember: Int
        var memberCount = -1
        var point: RowPoint?
        var problem: String?
        var spot = LookupPrefetch.Spot.none
    }

    init(columns: CoordinateColumns, encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.columns = columns
        self.encoder = encoder
        self.printer = printer
        geocoder = printer as? ReverseGeocoder
        lineMembers.reserveCapacity(32)
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        if let geocoder { return process(chunk, into: output, printer: geocoder) }
        return process(chunk, into: output, printer: printer)
    }

    private func process<Printer: PlacemarkPrinter>(_ chunk: InputChunk, into output: GrowableByteArray, printer: Printer) -> RowCounts {
        var counts = RowCounts()
        let bytes = UnsafePointer(chunk.buffer.base)
        scanLines(bytes, end: chunk.length, firstLine: chunk.unitsBefore + 1)
        let lines = self.lines, needs = encoder.needs
        let order = rowOrder.order(count: lines.count) { lines[$0].point.map { SIMD2($0.latitude, $0.longitude) } ?? SIMD2(.nan, .nan) }
        // In the input's order the answers go straight to the output; in another, each where it lies, gathered after.
        let isReordered = rowOrder.isReordered
        let answers = isReordered ? reorderedAnswers : output
        if isReordered { answers.count = 0 }
        members.withUnsafeBufferPointer { members in
            for position in 0..<order.count {
                let line = lines[order[position]]
                counts.rows += 1
                if line.point == nil { counts.errors += 1 }
                @inline(__always) func spot(_ ahead: Int) -> LookupPrefetch.Spot {
                    position &+ ahead < order.count ? lines[order[position &+ ahead]].spot : .none
                }
                let step = PointsAhead.rowsPerStage
                printer.prefetch(stages: (spot(3 &* step), spot(2 &* step), spot(step)), needs: needs)
                let start = answers.count
                encoder.appendGeocodedRow(
                    bytes,
                    input: line.memberCount >= 0
                        ? .members(UnsafeBufferPointer(rebasing: members[line.firstMember..<line.firstMember + line.memberCount]))
                        : .unparsed(line.start..<line.stop),
                    point: line.point, problem: "line \(line.line): \(line.problem ?? "no coordinate")",
                    printer: printer, to: answers)
                if isReordered { rowOrder.noteAnswer(of: order[position], from: start, to: answers.count) }
            }
        }
        if isReordered { rowOrder.gather(lines.count, from: answers, to: output) }
        return counts
    }

    /// Scans every non-blank line of `bytes[..<end]` into `lines`, its object's members into `members`.
    private func scanLines(_ bytes: UnsafePointer<UInt8>, end: Int, firstLine: Int) {
        lines.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        var lineMembers: [JSONMember] = []
        swap(&lineMembers, &self.lineMembers)
        defer { swap(&lineMembers, &self.lineMembers) }
        var index = 0
        var lineNumber = firstLine - 1
        while index < end {
            var lineEnd = index
            while lineEnd < end && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let lineStart = index
            index = lineEnd + 1
            lineNumber += 1
            let start = JSONScanner.skipWhitespace(bytes, lineStart, lineEnd)
            var stop = lineEnd
            while stop > start, JSONScanner.isWhitespace(bytes[stop - 1]) { stop -= 1 }
            if start == stop { continue }
            var line = ScannedLine(start: start, stop: stop, line: lineNumber, firstMember: members.count)
            do {
                let objectEnd = try JSONScanner.scanObjectMembers(bytes, start, stop, into: &lineMembers)
                guard objectEnd == stop else {
                    throw JSONSyntaxError(reason: "unexpected text after the object", offset: objectEnd)
                }
                line.memberCount = lineMembers.count
                members.append(contentsOf: lineMembers)
                switch locateCoordinate(lineMembers, bytes) {
                case .point(let found):
                    line.point = found
                    line.spot = LookupPrefetch.Spot(Coordinate(latitude: found.latitude, longitude: found.longitude))
                case .problem(let message): line.problem = message
                }
            } catch let error as JSONSyntaxError {
                line.problem = "not a JSON object (\(error.reason) at column \(error.offset - lineStart + 1))"
            } catch {
                line.problem = "not a JSON object"
            }
            lines.append(line)
        }
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
