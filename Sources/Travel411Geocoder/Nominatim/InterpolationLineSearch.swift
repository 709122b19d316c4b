import Foundation
import Travel411Core
import Travel411Store

/// The house numbers of `addr:interpolation` lines, answered as Nominatim 5.3's `lookup_street_poi` does
/// (nominatim_api/reverse.py, "Find interpolation for street"): after the street or object was decided, the line
/// nearest the point within a distance that decision gives, whose number at the point's place along it answers
/// instead, at that number's place (`_find_interpolation_for_street`, `_interpolated_housenumber`,
/// `_interpolated_position`; the row as `create_from_osmline_row`, results.py, makes it: `place=house` on the way).
extension ReverseGeocoder {
    /// Looks for the line when the answer may have a house number (`max_rank > 27`, the address layer on) and does not
    /// lie inside a building or area (`degrees > 0`): of those within `degrees` of the point (`ST_DWithin`, edge
    /// included), and of `parent`'s lines only when a street answered, the nearest; its number's record (`record.object`)
    /// and its parent street answer. Whether one was found.
    func answerFromInterpolationLine(
        _ record: inout PlacemarkRecord, within degrees: Double, parent: UInt32?, maximumRank: Int, layers: ReverseLayers
    ) -> Bool {
        guard maximumRank >= 30, layers.contains(.address), degrees > 0 else { return false }
        let point = record.location
        let found = withInterpolations { lines -> (line: UInt32, object: UInt32, parent: UInt32)? in
            let parentField = PlacesSchema.InterpolationField.parent.rawValue
            guard
                let nearest = lines.index.nearestInDegrees(
                    to: point, radiusDegrees: Self.justBeyond(degrees),
                    accept: parent.map { street in { Self.number(lines.names.bytes(Int($0), parentField)) == street } })
            else { return nil }
            return Self.interpolatedObject(of: nearest.id, at: point, lines: lines)
        }
        guard let found = found ?? nil else { return false }
        record.object = Int32(found.object)
        record.addressObject = -1
        record.street = Int32(found.parent)
        record.streetAnswers = false
        record.interpolation = Int32(found.line)
        return true
    }

    /// The record of the number the line gives the point, and the line's parent street: the number is the start plus
    /// the steps nearest the point's place along the line (`_interpolated_housenumber`: `round`, which PostgreSQL does to
    /// the even on a tie, of the numbers' span times the place, in steps); its record lies at that number's place, as
    /// `_interpolated_position` puts the answer (a single number's line is a point).
    private static func interpolatedObject(
        of line: UInt32, at point: Coordinate, lines: PlacesLookup.LineLevel
    ) -> (line: UInt32, object: UInt32, parent: UInt32)? {
        func field(_ field: PlacesSchema.InterpolationField) -> UInt32? { number(lines.names.bytes(Int(line), field.rawValue)) }
        guard let start = field(.start), let end = field(.end), let step = field(.step), step > 0, end >= start,
            let first = field(.firstObject), let parent = field(.parent)
        else { return nil }
        let text = lines.names.bytes(Int(line), PlacesSchema.InterpolationField.line.rawValue).map { String(decoding: $0, as: UTF8.self) }
        let values = (text ?? "").split(separator: " ").compactMap { Double($0) }
        let points = stride(from: 0, to: values.count - 1, by: 2).map { Point2D(x: values[$0], y: values[$0 + 1]) }
        let place = located(point, along: points)
        let steps = (Double(end - start) * place / Double(step)).rounded(.toNearestOrEven)
        let last = (end - start) / step
        return (line, first + min(last, UInt32(max(0, steps))), parent)
    }

    /// Where along `line` its point nearest `point` lies, as a fraction of its length in degrees (`ST_LineLocatePoint`);
    /// 0 for a line of no length.
    static func located(_ point: Coordinate, along line: [Point2D]) -> Double {
        var best = (squared: Double.infinity, along: 0.0)
        var reached = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let dx = b.x - a.x, dy = b.y - a.y
            let squaredLength = dx * dx + dy * dy
            let t =
                squaredLength > 0
                ? max(0, min(1, ((point.longitude - a.x) * dx + (point.latitude - a.y) * dy) / squaredLength)) : 0
            let ex = a.x + t * dx - point.longitude, ey = a.y + t * dy - point.latitude
            let length = squaredLength.squareRoot()
            if ex * ex + ey * ey < best.squared { best = (ex * ex + ey * ey, reached + t * length) }
            reached += length
        }
        return reached > 0 ? best.along / reached : 0
    }

    /// The explanation's lines for an answer an interpolation line gave (`where --explain`, the server's `debug=1`):
    /// none for any other answer.
    func interpolationExplanation(_ record: PlacemarkRecord) -> [String] {
        guard record.interpolation >= 0 else { return [] }
        let text = withInterpolations { lines -> String? in
            func field(_ field: PlacesSchema.InterpolationField) -> String {
                lines.names.bytes(Int(record.interpolation), field.rawValue).map { String(decoding: $0, as: UTF8.self) } ?? "?"
            }
            return "\(field(.start))-\(field(.end)), step \(field(.step))"
        }
        let number = placemark(from: record).subThoroughfare ?? "?"
        let element =
            withObjects { $0.names.bytes(Int(record.object), PlacesSchema.ObjectField.element.rawValue) }
            .flatMap { $0.map { String(decoding: $0, as: UTF8.self) } } ?? "?"
        return [
            "house number: \(number)",
            "  decided by: the addr:interpolation line \(element) (its piece \((text ?? nil) ?? "?")), the nearest line within reach of the",
            "  street or object found first, its number at the point's place along it (lookup_street_poi:",
            "  _find_interpolation_for_street, _interpolated_housenumber); the road is the line's parent street",
        ]
    }
}
