import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// The street mapped as an area (a pedestrian square) that holds the point, which is then at distance 0 from it.
    /// Nominatim's `_find_closest_street_or_pois` (nominatim_api/reverse.py 5.3) orders its candidates by PostGIS's
    /// `ST_Distance` to their geometry, 0 inside a polygon, and takes an area only when its centroid lies within the
    /// search's reach: a point inside Minsk's Independence Square (relation 278745) answers the square at rank 26,
    /// not the library 40 m away that is nearer than its outline. Rank-27 squares (a footway area) from zoom 17 only
    /// (`maximumRank`), as the lines. Of several squares holding the point, the smallest-numbered; at the point itself.
    func streetArea(
        holding point: Coordinate, streets: PlacesLookup.LineLevel, maximumRank: Int
    ) -> (id: UInt32, degrees: Double, closest: Coordinate)? {
        let minorToo = maximumRank >= 27
        let found = withStreetCovers { covers -> UInt32? in
            guard var (lines, lastX) = ObjectCovers.candidates(at: point, covers: covers) else { return nil }
            let centroidField = PlacesSchema.StreetField.centroid.rawValue, rankField = PlacesSchema.StreetField.rank.rawValue
            lines = lines.filter { id in
                guard minorToo || !(streets.names.bytes(Int(id), rankField).map(Self.isMinorRank) ?? false) else { return false }
                // No centroid recorded: in reach, as `centroidInReach` takes an object without one.
                guard let centroid = Self.point(streets.names.bytes(Int(id), centroidField)) else { return true }
                let dx = centroid.longitude - point.longitude, dy = centroid.latitude - point.latitude
                return dx * dx + dy * dy < Self.nominatimSearchDegrees * Self.nominatimSearchDegrees
            }
            guard !lines.isEmpty else { return nil }
            // The ray as far as the farthest candidate reaches east (its rings are the street's lines).
            let reach = max(Self.nominatimSearchDegrees, lastX - point.longitude + ObjectCovers.slackDegrees)
            return streets.index.outlinesHolding(point, reachDegrees: reach, among: lines, scanningTo: lastX).first
        }
        return (found ?? nil).map { (id: $0, degrees: 0, closest: point) }
    }

    /// Whether the square's polygon is smaller than the building's or area's that also holds the point. Nominatim's
    /// candidates come sorted by distance and then by `ST_Area` (the window of `_best_geometry` orders them so, and
    /// PostgreSQL sorts once for both orders: `EXPLAIN` of the 5.3.3 query on the Minsk cut), so at distance 0 the
    /// smaller polygon is the first: Independence Square (4.3e-6 square degrees) before the government's area around
    /// it (`office=government`, W633906277, 9.3e-6), whose POI nodes travel411 answered. An equal area keeps the object.
    static func isSmaller(
        square: UInt32, than area: UInt32, streets: PlacesLookup.LineLevel, objects: PlacesLookup.LineLevel
    ) -> Bool {
        guard let squareExtent = extent(ofStreet: square, streets: streets),
            let areaExtent = extent(of: area, objects: objects)
        else { return false }
        // The square's rings are its street's lines, measured as an object's outline is.
        return outlineArea(of: square, extent: squareExtent, objects: streets) < outlineArea(of: area, extent: areaExtent, objects: objects)
    }
}
