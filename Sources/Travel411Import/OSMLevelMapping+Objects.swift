import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

extension OSMLevelMapping {
    /// The objects in the order they came, with their postcodes checked and their parent streets; `addressCity` gives the
    /// city level's feature number of the municipality an `addr:city` value names at a point in a country.
    func collectObjects(
        _ postcodes: OSMPostcodes, countryOf: (Point2D) -> String?, addressCity: (String, Point2D, String?) -> String?
    ) throws {
        let postcodeField = PlacesSchema.ObjectField.postcode.rawValue
        let parentField = PlacesSchema.ObjectField.parent.rawValue
        let countryField = PlacesSchema.ObjectField.country.rawValue, cityField = PlacesSchema.ObjectField.city.rawValue
        let linesField = PlacesSchema.ObjectField.placeLines.rawValue
        let (collector, pendingObjects) = (self.collector, self.pendingObjects)
        var number: UInt32 = 0
        // Of those whose `addr:street` names no street near, the ones parented by their `addr:place` (`OSMAddressPlaceParents`).
        let namingAPlace = try addressPlaces.objectsNamingAPlace()
        var nextNamingAPlace = namingAPlace.startIndex
        defer { collector.interpolations.settle(base: (collector.objectRecords?.objectCount ?? number) - number) }
        /// Collects the next object; false when none is left.
        func collectNext(parent: [UInt32]?) throws -> Bool {
            guard var object = try pendingObjects.next({ try $0.pendingObject() }) else { return false }
            if let written = object.fields[postcodeField] {
                object.fields[postcodeField] = postcodes.normalised(written, countryCode: countryOf(object.point))
            }
            // Several streets of its name: `ObjectNearestStreets` keeps the one nearest.
            if let parent { object.fields[parentField] = parent.map(String.init).joined(separator: " ") }
            while nextNamingAPlace < namingAPlace.endIndex, namingAPlace[nextNamingAPlace].object < number { nextNamingAPlace += 1 }
            if object.fields.count <= linesField {
                object.fields += [String?](repeating: nil, count: linesField + 1 - object.fields.count)
            }
            if parent == nil, nextNamingAPlace < namingAPlace.endIndex, namingAPlace[nextNamingAPlace].object == number {
                object.fields[parentField] = ObjectNearestStreets.placeAddress
                // The parent's line in its address (`AddressPlaceLine`).
                object.fields[linesField] = AddressPlaceLine.text([namingAPlace[nextNamingAPlace].line])
            }
            // Its country, of its point, decided once here as Nominatim decides `placex.country_code` at import
            // (`placex_update`, lib-sql/functions/placex_triggers.sql: `get_country_code` of the centroid); its parent
            // street, which Nominatim looks for in the object's own country's partition, is of the same country.
            let country = countryOf(object.point)
            object.fields[countryField] = country
            ObjectNearestStreets.settleParentMark(&object.fields, countryCode: country)
            // Its `addr:city` as read, replaced by the municipality it names (`OSMAddressCity`), none when it names none.
            if let value = object.fields[cityField] ?? nil { object.fields[cityField] = addressCity(value, object.point, country) }
            let indexed = !collector.interpolations.isUnindexed(pendingObject: number)
            try collector.collectObject(object.fields, at: object.point, outline: object.outline, indexed: indexed)
            number += 1
            return true
        }
        try parentStreets.answers(countryAt: countryOf) { object, streets in
            while number < object { guard try collectNext(parent: nil) else { return } }
            _ = try collectNext(parent: streets)
        }
        while try collectNext(parent: nil) {}
    }
}
