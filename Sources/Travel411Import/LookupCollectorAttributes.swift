import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// What a feature gives the lookups when it does not come through a shapefile layout (an OpenStreetMap
/// element): the same structures `collect(_:record:fid:plan:)` fills, from plain values.
extension LookupCollector {
    /// A polygon of an area level; returns a reason when the shape has no rings.
    func collectArea(
        _ level: PlacesSchema.AreaLevel, _ shape: Shape, layer: String, fid: Int64, name: String?, code: String?,
        countryCode: String?, postcode: String? = nil, municipality: Int? = nil, placeType: String? = nil,
        centre: Point2D? = nil, taggedPostcode: String? = nil
    ) -> String? {
        let rings = shape.rings
        guard !rings.isEmpty else { return "not a polygon" }
        let data: AreaLevelData
        if let known = areas[level] {
            data = known
        } else {
            data = newAreaLevel(level)
            areas[level] = data
        }
        if level == .country {
            keepCountryPolygons(shape)
        } else {
            data.builder.add(feature: data.features.count, rings: rings)
        }
        data.features.append(
            AreaFeature(
                layer: layer, fid: fid, name: name, code: code, countryCode: countryCode?.uppercased(), postcode: postcode,
                municipality: municipality, placeType: placeType, centre: centre, taggedPostcode: taggedPostcode))
        return nil
    }

    /// An extract's locality, whose place node reaches `reach` degrees (`ExtractPlaces`).
    func collectExtractLocality(_ locality: (name: String, population: Double, reach: Double, coordinate: Coordinate)) {
        localities.append(
            Locality(
                name: locality.name, admin1: nil, admin2: nil, countryCode: nil, population: max(0, locality.population),
                coordinate: locality.coordinate))
        extractLocalityReaches.append(locality.reach)
    }

    func collectAddress(houseNumber: String, street: String?, postcode: String?, at coordinate: Coordinate) {
        notingFailure { try addresses?.add([houseNumber, street, postcode], at: coordinate) }
    }

    func collectPostcode(_ code: String, at coordinate: Coordinate) {
        notingFailure { try postcodes?.add([code], at: coordinate) }
    }

    /// Runs `write` unless a write failed before (a full disk fails every one after), keeping its failure.
    private func notingFailure(_ write: () throws -> Void) {
        guard pointFailure == nil else { return }
        do { try write() } catch { pointFailure = error }
    }

    /// Adds a street (an empty name for an unnamed one); returns its number, nil when the import keeps no streets.
    @discardableResult
    /// `centre` is an area's point on its surface (a pedestrian square), nil for a line; `centroid` Nominatim's
    /// centroid (that point, or the middle of a line).
    func collectStreet(
        name: String, rank: Int?, element: String?, kind: String?, lines: [[Point2D]], centre: Point2D? = nil,
        centroid: Point2D? = nil
    ) throws -> UInt32? {
        guard let streets, var names = streetNames else { return nil }
        // Appended to as the only reference to its page: with `streetNames` still holding it, every append copied the
        // page's records (a fifth of the read's features thread at 150 copies).
        streetNames = nil
        defer { streetNames = names }
        let id = UInt32(names.recordCount)
        try streets.add(line: id, lines: lines)
        // A square's box, as an object's (`collectObject`): a point inside it is at distance 0 from it.
        let extent = OSMLevelMapping.extent(of: lines)
        if centre != nil, !extent.isEmpty {
            let box = extent.widened(by: ObjectCovers.slackDegrees)
            try streetCovers?.add(line: id, lines: [[Point2D(x: box.minX, y: box.minY), Point2D(x: box.maxX, y: box.maxY)]])
        }
        objectRecords?.addStreet(named: !name.isEmpty, minor: rank == 27)
        try names.append([
            name, rank.map(String.init), element, kind, OSMLevelMapping.extentText(lines), centre.map(OSMLevelMapping.pointText),
            centroid.map(OSMLevelMapping.pointText),
        ])
        return id
    }

    /// Adds an address point or POI: its point, or the rings it stands on. `fields` as `PlacesSchema.ObjectField`.
    /// One not `indexed` is a record only (`OSMInterpolationLines`).
    func collectObject(_ fields: [String?], at point: Point2D, outline: [[Point2D]], indexed: Bool = true) throws {
        guard let objects, let records = objectRecords else { return }
        let id = records.objectCount
        guard indexed else { return try records.addObject(fields) }
        try objects.add(line: id, lines: outline.isEmpty ? [[point, point]] : outline)
        // The outline's box, widened a little: a crossing computed at its very edge stays inside the covered cells.
        let extent = OSMLevelMapping.extent(of: outline)
        if !extent.isEmpty {
            let box = extent.widened(by: ObjectCovers.slackDegrees)
            try objectCovers?.add(line: id, lines: [[Point2D(x: box.minX, y: box.minY), Point2D(x: box.maxX, y: box.maxY)]])
        }
        try records.addObject(fields)
    }
}
