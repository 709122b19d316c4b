import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store
@testable import Travel411StoreWriters

/// Nominatim 5.3's place-node weights and boundary links, on the coordinates of the extracts that showed them
/// (Porto, Krems, London: docs/osm.md; the extracts themselves are not committable, so the shapes are squares
/// around the real nodes).
@Suite struct OSMLinkedPlacesTests {
    static func node(_ name: String, _ type: String, _ x: Double, _ y: Double, weight: Double = 1) -> OSMPlaceNodeAreas.Node {
        OSMPlaceNodeAreas.Node(name: name, type: type, point: Point2D(x: x, y: y), layer: "places", fid: 1, weight: weight)
    }

    static func index(_ cells: [(node: OSMPlaceNodeAreas.Node, shape: Shape)]) throws -> AreaIndex {
        var builder = AreaIndexBuilder()
        for (i, cell) in cells.enumerated() { builder.add(feature: i, rings: cell.shape.rings) }
        return try AreaIndex(built: builder.build())
    }

    /// `insert_addresslines` weighs a city's distance by 0.25, a town's by 0.5, a village's by 1.
    @Test func distanceWeightsByRank() throws {
        #expect(OSMPlaceNodeAreas.distanceWeight(addressRank: 16, searchRank: 15) == 0.2)
        #expect(OSMPlaceNodeAreas.distanceWeight(addressRank: 16, searchRank: 16) == 0.25)
        #expect(OSMPlaceNodeAreas.distanceWeight(addressRank: 16, searchRank: 18) == 0.5)
        #expect(OSMPlaceNodeAreas.distanceWeight(addressRank: 16, searchRank: 19) == 1)
        #expect(OSMPlaceNodeAreas.distanceWeight(addressRank: 20, searchRank: 16) == 1)
        let levels = try #require(NominatimAddressLevels.embedded)
        #expect(levels.placeRanks(type: "town", countryCode: "pt")?.search == 18)
        #expect(levels.placeRanks(type: "city", countryCode: "fi", isCapital: true)?.search == 15)
    }

    /// Porto's city node and Vila Nova de Gaia's town node, 2.2 km apart across the Douro: the town answers only
    /// inside the disc where half its distance is below a quarter of the city's, and the city around it, as
    /// Nominatim names Porto south of the river. Krems (a town) and Neustift (a village): the town's box answers
    /// where the village's box ends, whatever the bisector.
    @Test func aCityWinsOverATownTwiceAsNear() throws {
        let porto = Self.node("Porto", "city", -8.6107884, 41.1494512, weight: 0.25)
        let gaia = Self.node("Vila Nova de Gaia", "town", -8.6058415, 41.1300103, weight: 0.5)
        let cells = OSMPlaceNodeAreas.cells(of: [porto, gaia]) { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) }
        #expect(cells.map(\.node.name) == ["Vila Nova de Gaia", "Porto"])
        let index = try Self.index(cells)
        #expect(index.featureIndex(longitude: -8.6058, latitude: 41.1290) == 0)
        // Nearer Gaia's node (0.015°) than Porto's (0.024°), but 0.5 × 0.015 > 0.25 × 0.024: Porto.
        #expect(index.featureIndex(longitude: -8.620454, latitude: 41.127674) == 1)

        let krems = Self.node("Krems an der Donau", "town", 15.6003717, 48.4108382, weight: 0.5)
        let neustift = Self.node("Neustift an der Donau", "village", 15.663562, 48.411111)
        let towns = try Self.index(OSMPlaceNodeAreas.cells(of: [krems, neustift]) { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) })
        // 2.5 km south of Neustift's node, beyond its ± 2 km box, inside Krems's ± 4 km one.
        #expect(towns.featureIndex(longitude: 15.638312, latitude: 48.388117) == 1)
        #expect(towns.featureIndex(longitude: 15.6636, latitude: 48.405) == 0)
    }

    /// A boundary's `label` member is its linked node first, whatever its type and wherever it lies; a node of its
    /// `wikidata` only inside it (`find_linked_place`). Gozo's label member is its island node.
    @Test func aLabelMemberLinksBeforeTheWikidataItem() throws {
        var links = OSMLinkedPlaces()
        var island = Self.placeNode(60_796_225, wikidata: nil)
        island.isLabelMember = true
        links.add(island, OSMPlace(type: "island"), at: Point2D(x: 14.25, y: 36.05))
        links.add(Self.placeNode(2, wikidata: "Q170488"), OSMPlace(type: "town"), at: Point2D(x: 14.24, y: 36.04))
        let elsewhere = OSMPostcodeAreasTests.square(14.0, 35.0, 0.1)
        #expect(links.node(label: 60_796_225, wikidata: "Q170488", inside: elsewhere)?.type == "island")
        #expect(links.node(label: nil, wikidata: "Q170488", inside: elsewhere) == nil)
        let gozo = OSMPostcodeAreasTests.square(14.2, 36.0, 0.1)
        #expect(links.node(label: nil, wikidata: "Q170488", inside: gozo)?.type == "town")
        #expect(links.node(label: 7, wikidata: "Q170488", inside: gozo)?.type == "town")
    }

    static func placeNode(_ id: Int64, wikidata: String?) -> OSMFeature {
        var feature = OSMFeature(kind: .place, element: OSMElementID(.node, id), name: "a place", shape: .point(Point2D(x: 0, y: 0)))
        feature.wikidata = wikidata
        return feature
    }

    /// London: the Inner and Middle Temples (admin_level 9, rank 18) share their `wikidata` with the `quarter`
    /// node Temple (rank 22), and the node's box does not hold the boundary's parent's centre: the boundary is a
    /// quarter, below the suburb node Clerkenwell around it; Clerkenwell's area cut to it answers below it.
    @Test func aBoundaryLinkedToAQuarterIsBelowTheSuburbAroundIt() throws {
        let levels = try #require(NominatimAddressLevels.embedded)
        var links = OSMLinkedPlaces()
        links.add(Self.placeNode(1, wikidata: "Q3624241"), OSMPlace(type: "quarter"), at: Point2D(x: -0.1100526, y: 51.5128303))
        let temples = OSMPostcodeAreasTests.square(-0.113, 51.510, 0.004)
        let node = try #require(links.node(label: nil, wikidata: "Q3624241", inside: temples))
        #expect(links.node(label: nil, wikidata: "Q1", inside: temples) == nil)
        #expect(OSMLinkedPlaces.rank(of: 18, linkedTo: node, parentRank: 3, countryCode: "gb", levels: levels) == 22)
        // A linked node no finer than the parent leaves the boundary's rank.
        #expect(OSMLinkedPlaces.rank(of: 18, linkedTo: node, parentRank: 22, countryCode: "gb", levels: levels) == 18)

        let clerkenwell = Self.node("Clerkenwell", "suburb", -0.1055555, 51.5237268)
        let cell = try #require(OSMPlaceNodeAreas.cells(of: [clerkenwell]) { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) }.first)
        let suburb = OSMLevelMapping.PendingArea(
            shape: cell.shape, layer: "places", fid: 1, name: "Clerkenwell", node: clerkenwell.point, placeType: "suburb")
        var quarter = OSMLevelMapping.PendingArea(shape: temples, layer: "boundaries", fid: 2, name: "Inner and Middle Temples")
        quarter.placeType = "quarter"
        let areas = OSMLevelMapping.withFinerBoundaries([suburb], finer: [quarter])
        #expect(areas.map(\.name) == ["Clerkenwell", "Clerkenwell", "Inner and Middle Temples"])
        #expect(areas[0].below == 2)
        #expect(areas[0].shape.contains(x: -0.111, y: 51.512))
        #expect(!areas[0].shape.contains(x: -0.105, y: 51.520))
        #expect(areas[1].below == nil)
    }
}
