import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store
import Travel411StoreWriters

/// A piece of an `addr:interpolation` line as Nominatim 5.3 keeps it (a `location_property_osmline` row, made by
/// `osmline_update`, lib-sql/functions/interpolation.sql): its inner numbers from `start` to `end` a `step` apart, along
/// `piece` (cut from the first of them to the last, `ST_LineSubstring`), and the whole way it was cut from, whose
/// parent street is the piece's.
struct OSMInterpolationLine {
    var start: Int
    var end: Int
    var step: Int
    /// The object record of `start` (`OSMInterpolationLines` numbers it); the others follow, one a step.
    var firstObject: UInt32
    /// The record of the way's centre, which asks for its parent street by its `addr:street`: a street's name or ref.
    var wayObject: UInt32
    var piece: [Point2D]
    var way: [Point2D]
}

/// The extract's interpolation lines, and the objects that hold their numbers: records only, which no nearest search
/// finds (Nominatim has no `placex` row for an interpolated number) and no street lists among its addresses; a lookup
/// reaches them through their line (`ReverseGeocoder.interpolation`).
struct OSMInterpolationLines {
    private(set) var lines: [OSMInterpolationLine] = []
    /// The objects of the lines, by record number.
    private(set) var unindexed: Set<UInt32> = []
    private var pending: [OSMInterpolationLine] = []
    private var pendingUnindexed: Set<UInt32> = []

    var isEmpty: Bool { lines.isEmpty }

    /// A line whose objects are numbered in the extract's pending objects (`OSMLevelMapping.addObject`).
    mutating func add(_ line: OSMInterpolationLine) { pending.append(line) }
    mutating func addUnindexed(pendingObject: UInt32) { pendingUnindexed.insert(pendingObject) }
    func isUnindexed(pendingObject: UInt32) -> Bool { pendingUnindexed.contains(pendingObject) }

    /// The extract's pending objects are records from `base` on.
    mutating func settle(base: UInt32) {
        unindexed.formUnion(pendingUnindexed.map { $0 + base })
        lines += pending.map { line in
            var line = line
            line.firstObject += base
            line.wayObject += base
            return line
        }
        pending = []
        pendingUnindexed = []
    }

    /// The line's parent street (`get_interpolation_parent`, lib-sql/functions/interpolation.sql): the street its
    /// `addr:street` names (`find_parent_for_address` at the way's centre: the parent the import found for the way's
    /// records, `parents`, by a street's name or ref), else the rank-26 way nearest the whole way within
    /// 0.001°, named or not (its ORDER BY tests `ST_GeometryType = 'ST_Line'`, which PostGIS never gives: the plain
    /// `ST_Distance`; rank 26: not `isMinor`), measured from points along the way no more than 0.00001° apart. A line
    /// with no parent is never cut into pieces (`osmline_update`) and answers nothing.
    static func parent(
        of line: OSMInterpolationLine, parents: [UInt32: UInt32], streets: StreetTiles, isMinor: @escaping (UInt32) -> Bool
    ) -> UInt32? {
        if let named = parents[line.wayObject] { return named }
        var best: (id: UInt32, degrees: Double)?
        for point in samples(of: line.way) {
            let reach = best.map { min($0.degrees, 0.001) } ?? 0.001
            guard
                let found = streets.nearestInDegrees(
                    to: Coordinate(latitude: point.y, longitude: point.x), radiusDegrees: reach * (1 + 1e-9) + 1e-12,
                    accept: { !isMinor($0) })
            else { continue }
            if best.map({ found.degrees < $0.degrees }) ?? true { best = (found.id, found.degrees) }
        }
        return best?.id
    }

    private static func samples(of way: [Point2D]) -> [Point2D] {
        guard let first = way.first else { return [] }
        var points = [first]
        for (a, b) in zip(way, way.dropFirst()) {
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            let steps = max(1, min(1000, Int((length / 0.00001).rounded(.up))))
            for i in 1...steps {
                let t = Double(i) / Double(steps)
                points.append(Point2D(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
            }
        }
        return points
    }

    /// Stores the lines with a parent: their tiles (`tile`, in the streets' grid) and records (`record`,
    /// `PlacesSchema.InterpolationField`); the tiles' directory and the number of record pages, nil when there are none.
    func store(
        parents: [UInt32: UInt32], streets: StreetTiles, isMinor: @escaping (UInt32) -> Bool, runPrefix: String,
        coding: @escaping @Sendable ([UInt8]) -> [UInt8], tile: @escaping (Int, [UInt8]) throws -> Void,
        record: @escaping (Int, [UInt8]) throws -> Void
    ) throws -> (directory: [UInt8], recordPages: Int)? {
        let kept = lines.compactMap { line in Self.parent(of: line, parents: parents, streets: streets, isMinor: isMinor).map { (line, $0) }
        }
        guard !kept.isEmpty else { return nil }
        let tiles = StreetTilesBuilder(runPrefix: runPrefix, grid: .streets, bufferBytes: 1 << 20)
        var records = PagedRecordsWriter(fieldCount: PlacesSchema.InterpolationField.allCases.count, storePage: record)
        for (line, parent) in kept {
            try tiles.add(line: UInt32(records.recordCount), lines: [line.piece.count == 1 ? [line.piece[0], line.piece[0]] : line.piece])
            try records.append([
                String(line.start), String(line.end), String(line.step), String(line.firstObject), String(parent),
                line.piece.map(OSMLevelMapping.pointText).joined(separator: " "),
            ])
        }
        let directory = try tiles.finish(coding: coding, storePage: tile)
        return (directory, try records.finish())
    }
}
