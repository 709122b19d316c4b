import Foundation
import Travel411Core
import Travel411Store

/// The extract's address points and POIs, placed once the whole extract is read (`OSMLevelMapping.finish`): each
/// object in the order it came, with its postcode checked, its parent streets and its country, handed to the
/// collector.
///
/// Two cores share the step, which grows with the extract: this thread reads the objects back and decides their
/// fields, another (`OrderedConsumerThread`) hands them to the collector, which cuts their outlines into tiles and
/// writes their records; each half is about half of the work. The collector gets the objects one at a time and in
/// the same order, as from one thread doing both.
struct OSMObjectPlacing {
    /// The objects as they came (`PendingObject`), each numbered by its place in the file.
    let pendingObjects: OSMSpillFile
    /// Their parent streets, by object number.
    let parentStreets: OSMParentStreets
    let postcodes: OSMPostcodes
    let countryOf: (Point2D) -> String?

    /// An object with its fields decided, on its way to the collector.
    private struct Placed {
        var fields: [String?]
        var point: Point2D
        var outline: [[Point2D]]
    }

    /// The collector's thread failed: its error is the one to report.
    private struct CollectorStopped: Error {}

    /// Reads every object and hands it to `collector`, in order; rethrows the first failure of either thread.
    func place(into collector: LookupCollector) throws {
        let collecting = OrderedConsumerThread<Placed>(name: "travel411 objects") { object in
            try collector.collectObject(object.fields, at: object.point, outline: object.outline)
        }
        do {
            try readObjects { object in
                guard collecting.send(object) else { throw CollectorStopped() }
            }
        } catch {
            try collecting.finish()
            throw error
        }
        try collecting.finish()
    }

    /// Each object with its fields decided, in the order they came.
    private func readObjects(_ body: (Placed) throws -> Void) throws {
        let postcodeField = PlacesSchema.ObjectField.postcode.rawValue
        let parentField = PlacesSchema.ObjectField.parent.rawValue
        let countryField = PlacesSchema.ObjectField.country.rawValue
        var number: UInt32 = 0
        /// Reads the next object; false when none is left.
        func readNext(parent: [UInt32]?) throws -> Bool {
            guard var object = try pendingObjects.next({ try $0.pendingObject() }) else { return false }
            if let written = object.fields[postcodeField] {
                object.fields[postcodeField] = postcodes.normalised(written, countryCode: countryOf(object.point))
            }
            // Several streets of its name: `ObjectNearestStreets` keeps the one nearest.
            if let parent { object.fields[parentField] = parent.map(String.init).joined(separator: " ") }
            // Its country, of its point, decided once here as Nominatim decides `placex.country_code` at import
            // (`placex_update`, lib-sql/functions/placex_triggers.sql: `get_country_code` of the centroid); its parent
            // street, which Nominatim looks for in the object's own country's partition, is of the same country.
            if object.fields.count <= countryField {
                object.fields += [String?](repeating: nil, count: countryField + 1 - object.fields.count)
            }
            object.fields[countryField] = countryOf(object.point)
            try body(Placed(fields: object.fields, point: object.point, outline: object.outline))
            number += 1
            return true
        }
        try parentStreets.answers(countryAt: countryOf) { object, streets in
            while number < object { guard try readNext(parent: nil) else { return } }
            _ = try readNext(parent: streets)
        }
        while try readNext(parent: nil) {}
    }
}
