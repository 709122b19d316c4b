import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store

/// `addr:interpolation` lines: their numbers as addresses and objects of their own.
extension OSMLevelMapping {
    /// The house numbers between an interpolation line's two numbered ends, spread evenly along it.
    mutating func interpolate(_ feature: OSMFeature) throws -> Int {
        guard let line = feature.interpolation, let street = feature.address?.street ?? feature.address?.place,
            let first = line.firstHousenumber.flatMap(Int.init), let last = line.lastHousenumber.flatMap(Int.init), first != last
        else { return 0 }
        let step: Int
        switch line.scheme {
        case "odd", "even": step = 2
        case "all": step = 1
        default: step = Int(line.scheme) ?? 0
        }
        let points = feature.shape.lines.first ?? []
        // A line of a few hundred numbers at most: anything longer is a tagging error.
        guard step > 0, abs(last - first) / step <= 500, points.count >= 2 else { return 0 }
        let direction = last > first ? step : -step
        var added = 0
        var number = first + direction
        while direction > 0 ? number < last : number > last {
            let fraction = Double(number - first) / Double(last - first)
            let point = Self.point(along: points, fraction: fraction)
            let address = PendingAddress(
                houseNumber: String(number), street: street, postcode: feature.address?.postcode, coordinate: Self.coordinate(point))
            try pendingAddresses.append { $0.write(address) }
            let object = PendingObject(
                fields: [
                    nil, String(number), street, feature.address?.postcode, Self.elementText(feature.element), nil, nil,
                    Self.pointText(point), nil, nil,
                ],
                point: point,
                outline: [])
            try addObject(object)
            added += 1
            number += direction
        }
        return added
    }
}
