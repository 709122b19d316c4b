import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// The street an address or point of interest belongs to, decided at import as Nominatim decides it: of the
/// streets named as its `addr:street` (the same words, whatever the case, spacing and punctuation), the one
/// whose centre, the point halfway along it, is nearest, within 0.015°. A long street is several ways; the
/// address belongs to one of them. An object whose `addr:street` names no street near has none here: the
/// lookup then takes the nearest named street, as Nominatim does.
///
/// Streets and objects grow with the extract, so both wait in sort runs on disk, by column of `reachDegrees`:
/// each column's streets come before the objects of the column to their left, and a sweep holds only the
/// streets of the three columns around the objects it answers. The answers are sorted back into the objects'
/// order. What stays in memory is a number for each distinct name.
struct OSMParentStreets {
    static let reachDegrees = 0.015

    /// A street's centre (`number` is the street's), or an object asking for its street (`number` is the object's).
    private struct Entry: BitwiseCopyable {
        var column: Int32
        var row: Int32
        var name: UInt32
        var number: UInt32
        var x: Double
        var y: Double
        var isObject: Bool

        init(_ point: Point2D, name: UInt32, number: UInt32, isObject: Bool) {
            // Far inside Int32 (a longitude makes ±12,000), so that a neighbour's column is one too.
            let limit = Double(1 << 30)
            column = Int32(max(-limit, min(limit, floor(point.x / OSMParentStreets.reachDegrees))))
            row = Int32(max(-limit, min(limit, floor(point.y / OSMParentStreets.reachDegrees))))
            self.name = name
            self.number = number
            x = point.x
            y = point.y
            self.isObject = isObject
        }

        /// A street's column, or an object's plus one, times two, an object after the streets: once the objects
        /// of a column come, the streets of the column to their right have come too.
        var sweepKey: UInt64 {
            let column = Int64(self.column) + (isObject ? 1 : 0) - Int64(Int32.min)
            return UInt64(column) << 1 | (isObject ? 1 : 0)
        }
    }

    private struct Answer: BitwiseCopyable {
        var object: UInt32
        var street: UInt32
    }

    /// Each distinct name key's number.
    private var names: [[UInt8]: UInt32] = [:]
    private let entries: ExternalSorter<Entry>
    private let runPrefix: String
    private let bufferBytes: Int

    /// Sort runs are created as `runPrefix` and a name, each of `bufferBytes` of entries (40 bytes each).
    init(runPrefix: String, bufferBytes: Int = 16 << 20) {
        self.runPrefix = runPrefix
        self.bufferBytes = bufferBytes
        entries = ExternalSorter(runPrefix: runPrefix + "sweep-", bufferBytes: bufferBytes) { $0.sweepKey }
    }

    mutating func add(street id: UInt32, name: String, midpoint: Point2D) throws {
        guard let name = number(of: name) else { return }
        try entries.append(Entry(midpoint, name: name, number: id, isObject: false))
    }

    /// The object numbered `object`, at `point`, names its street `name`: `answers` gives the street.
    mutating func ask(object: UInt32, named name: String, at point: Point2D) throws {
        guard let name = number(of: name) else { return }
        try entries.append(Entry(point, name: name, number: object, isObject: true))
    }

    private mutating func number(of name: String) -> UInt32? {
        let key = Self.key(name)
        guard !key.isEmpty else { return nil }
        if let known = names[key] { return known }
        let number = UInt32(names.count)
        names[key] = number
        return number
    }

    /// The street of each object that asked, in the objects' order: of the streets of its name, the one whose
    /// centre is nearest, within reach; ties to the lower street number. Objects with none are left out.
    func answers(_ body: (_ object: UInt32, _ street: UInt32) throws -> Void) throws {
        let answers = ExternalSorter<Answer>(runPrefix: runPrefix + "answers-", bufferBytes: bufferBytes) { UInt64($0.object) }
        // The streets of the three columns around the objects being answered, by column and row.
        var window: [Int32: [Int32: [Entry]]] = [:]
        var windowColumn: Int32?
        let reachSquared = Self.reachDegrees * Self.reachDegrees
        try entries.drain { entry in
            guard entry.isObject else { return window[entry.column, default: [:]][entry.row, default: []].append(entry) }
            if entry.column != windowColumn {
                for column in window.keys.filter({ $0 < entry.column - 1 }) { window[column] = nil }
                windowColumn = entry.column
            }
            var best: (street: UInt32, squared: Double)?
            for column in (entry.column - 1)...(entry.column + 1) {
                guard let rows = window[column] else { continue }
                for row in (entry.row - 1)...(entry.row + 1) {
                    for street in rows[row] ?? [] where street.name == entry.name {
                        let dx = street.x - entry.x, dy = street.y - entry.y
                        let squared = dx * dx + dy * dy
                        guard squared <= reachSquared else { continue }
                        if best.map({ squared < $0.squared || (squared == $0.squared && street.number < $0.street) }) ?? true {
                            best = (street.number, squared)
                        }
                    }
                }
            }
            if let best { try answers.append(Answer(object: entry.number, street: best.street)) }
        }
        try answers.drain { try body($0.object, $0.street) }
    }

    /// A name's letters and digits, lower case, `ß` as `ss`: `Bendererstrasse` is `Benderer Strasse` (`NameKey`).
    package static func key(_ name: String) -> [UInt8] { NameKey.of(name) }
}
