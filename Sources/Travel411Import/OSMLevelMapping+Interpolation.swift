import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store

/// `addr:interpolation` lines: each piece a line of its own (`OSMInterpolationLines`), its numbers records the line names.
extension OSMLevelMapping {
    /// The pieces of an interpolation line (`interpolatedPieces`): each a line, and each of its numbers an address and
    /// an object that only the line answers with (`place=house` on the way, as Nominatim's `create_from_osmline_row`);
    /// a record at the way's centre (`get_center_point`: halfway along it) asks for the way's parent street by name.
    mutating func interpolate(_ feature: OSMFeature) throws -> Int {
        // A line without a street of its own takes its nodes' (get_interpolation_address); one with none at all finds its
        // parent street by its place alone (`OSMInterpolationLines.parent`).
        guard let line = feature.interpolation else { return 0 }
        let street = feature.address?.street ?? feature.address?.place ?? line.nodeStreet
        let way = feature.shape.lines.first ?? []
        let pieces = Self.interpolatedPieces(line, along: way)
        guard !pieces.isEmpty else { return 0 }
        let element = Self.elementText(feature.element)
        func object(_ number: Int?, at point: Point2D, postcode: String? = nil) throws -> UInt32 {
            let fields = [
                nil, number.map(String.init), street, postcode, element, "place=house", nil, Self.pointText(point), nil, nil,
            ]
            return try addObject(PendingObject(fields: fields, point: point, outline: []), indexed: false)
        }
        let centre = Self.point(along: way, fraction: 0.5)
        // Asks for the street of its name or `ref` (`OSMParentStreets.add(street:ref:midpoint:)`).
        let wayObject = try object(nil, at: centre)
        var count = 0
        for piece in pieces {
            var first: UInt32?
            // The piece's postcode is its numbered nodes' (`InterpolationPiece.postcode`), not the way's own
            // `addr:postcode`, which `osmline_update` does not read; without one the parent street's answers.
            for (number, point) in piece.numbers {
                let address = PendingAddress(
                    houseNumber: String(number), street: street, postcode: piece.postcode ?? feature.address?.postcode,
                    coordinate: Self.coordinate(point))
                try pendingAddresses.append { $0.write(address) }
                let made = try object(number, at: point, postcode: piece.postcode)
                if first == nil { first = made }
            }
            guard let first, let start = piece.numbers.first?.0, let end = piece.numbers.last?.0 else { continue }
            count += piece.numbers.count
            collector.interpolations.add(
                OSMInterpolationLine(
                    start: start, end: end, step: piece.step, firstObject: first, wayObject: wayObject,
                    piece: piece.line,
                    way: way))
        }
        return count
    }

    /// A piece of an interpolation line: its numbers and their points, its step, and the line from its first number
    /// to its last.
    struct InterpolationPiece {
        var numbers: [(Int, Point2D)]
        var step: Int
        var line: [Point2D]
        /// The `addr:postcode` of the numbered node that starts the piece, else of the one that ends it, else the
        /// previous piece's of the same way (`osmline_update`: `coalesce(prevnode.postcode, nextnode.postcode,
        /// postcode)`, a node's only when it carries a number and a postcode); nil for none.
        var postcode: String?
    }

    /// The numbers of the pieces (`interpolatedPieces`), in order.
    static func interpolatedNumbers(_ line: OSMInterpolation, along points: [Point2D]) -> [(Int, Point2D)] {
        interpolatedPieces(line, along: points).flatMap(\.numbers)
    }

    /// The numbers Nominatim 5.3 gives an interpolation line and where: the line is cut at each node whose house number
    /// is a number, and each piece between two such nodes more than a step apart holds the numbers strictly between
    /// them, of the scheme's parity (`odd`, `even`) or every step (`all`, a number), spread evenly along the piece by
    /// length (lib-sql/functions/interpolation.sql, `osmline_update`). An answer near the piece names the number at
    /// the point's place along it (nominatim_api/reverse.py, `_interpolated_housenumber`): the nearest of these.
    static func interpolatedPieces(_ line: OSMInterpolation, along points: [Point2D]) -> [InterpolationPiece] {
        let step: Int
        let parity: Int?
        switch line.scheme {
        case "odd": (step, parity) = (2, 1)
        case "even": (step, parity) = (2, 0)
        case "all": (step, parity) = (1, nil)
        // Nominatim takes no other scheme (`place_interpolation_insert`: `[1-9]`).
        default: (step, parity) = (line.scheme.count == 1 ? Int(line.scheme) ?? 0 : 0, nil)
        }
        guard step > 0, points.count >= 2 else { return [] }
        var made: [InterpolationPiece] = []
        var previous: (number: Int, index: Int)?
        var sectionStart = 0
        let postcodes = line.postcodes.count == points.count ? line.postcodes : []
        let postcode = { (index: Int) in postcodes.isEmpty ? nil : postcodes[index] }
        for (index, number) in numberedNodes(line, count: points.count) {
            defer { previous = (number, index) }
            guard let before = previous else { continue }
            let section = Array(points[sectionStart...index])
            sectionStart = index
            // A piece of no length (two numbered nodes at one place) holds no number, as in `osmline_update`.
            guard abs(before.number - number) > step, section.contains(where: { $0 != section[0] }) else { continue }
            let (start, end) = (min(before.number, number), max(before.number, number))
            let piece = before.number < number ? section : section.reversed()
            var first = start + (parity == nil ? step : 1)
            if let parity {
                let difference = first % step - parity
                first += difference < 0 ? step + difference : difference
            }
            let last = first + ((end - 1 - first) / step) * step
            // A piece of a few hundred numbers at most: anything longer is a tagging error.
            guard first <= last, (last - first) / step <= 500 else { continue }
            let fraction = { (value: Int) in Double(value - start) / Double(end - start) }
            made.append(
                InterpolationPiece(
                    numbers: stride(from: first, through: last, by: step).map { ($0, Self.point(along: piece, fraction: fraction($0))) },
                    step: step, line: Self.substring(of: piece, from: fraction(first), to: fraction(last)),
                    postcode: postcode(before.index) ?? postcode(index) ?? made.last?.postcode))
        }
        return made
    }

    /// The line's nodes whose house number is a number of at most six digits (as `osmline_update` takes them), in
    /// order along it: from the reader's numbers of each point, else the end nodes'.
    private static func numberedNodes(_ line: OSMInterpolation, count: Int) -> [(index: Int, number: Int)] {
        let numbers =
            line.housenumbers.count == count
            ? line.housenumbers : [line.firstHousenumber] + Array(repeating: nil, count: count - 2) + [line.lastHousenumber]
        return numbers.enumerated().compactMap { index, text in
            guard let text, (1...6).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(text) else {
                return nil
            }
            return (index, number)
        }
    }

    /// The part of `line` from `from` to `to` of its length in degrees (`ST_LineSubstring`): a single point when they
    /// are the same.
    static func substring(of line: [Point2D], from: Double, to: Double) -> [Point2D] {
        let first = point(along: line, fraction: from)
        guard to > from else { return [first] }
        let lengths = zip(line, line.dropFirst()).map { ((($1.x - $0.x) * ($1.x - $0.x)) + (($1.y - $0.y) * ($1.y - $0.y))).squareRoot() }
        let total = lengths.reduce(0, +)
        var made = [first], reached = 0.0
        for (i, length) in lengths.enumerated().dropLast() {
            reached += length
            let fraction = reached / total
            if fraction > from, fraction < to { made.append(line[i + 1]) }
        }
        made.append(point(along: line, fraction: to))
        return made
    }
}
