import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM

/// Where each country's municipalities and suburbs come from, decided country by country: a municipality from the
/// country's boundaries, else its place polygons; a suburb from its boundaries of its finest rank, else its place
/// polygons, else the cells around its suburb nodes (and its village nodes inside a municipality of another name).
/// Nominatim 5.3 ranks places and boundaries per country (`settings/address-levels.json`, each entry's `countries`;
/// GPL-2.0, its rules, not its code), so a country is the unit of these choices. Decided for the whole import, one
/// country's boundaries switched off another's node-drawn suburbs when extracts of both were imported together
/// (Liechtenstein's Rotenboden and Nendeln beside Malta, issue 35). An area's country is the one `placeBoundaries`
/// ranked it in (a boundary), else its node's, else the one on its surface (`OSMCountryOfPoint`).
struct OSMLevelSources {
    typealias PendingArea = OSMLevelMapping.PendingArea
    typealias Node = OSMPlaceNodeAreas.Node
    let countryOf: (Point2D) -> String?

    /// An area's country as a key, "" for none.
    func country(of area: PendingArea) -> String {
        Self.key(area.country ?? countryOf(area.node ?? area.shape.pointOnSurface))
    }

    func country(of node: Node) -> String { Self.key(countryOf(node.point)) }

    private static func key(_ code: String?) -> String { code?.uppercased() ?? "" }

    /// The place polygons of the countries that have none of `boundaries`, in their order.
    func placeAreas(_ areas: [PendingArea], besides boundaries: [PendingArea]) -> [PendingArea] {
        guard !areas.isEmpty, !boundaries.isEmpty else { return areas }
        let covered = Set(boundaries.map { country(of: $0) })
        return areas.filter { !covered.contains(country(of: $0)) }
    }

    /// The suburb boundaries of their country's finest rank (`placeBoundaries` keeps one rank of the band per
    /// country), finest rank first, each rank's in their order; and each country's rank.
    func finestSuburbBoundaries(_ byRank: [Int: [PendingArea]]) -> (areas: [PendingArea], ranks: [String: Int]) {
        // Each area's country once: for a place polygon it is a point-in-country search at its point on surface.
        let countries = byRank.mapValues { $0.map(country(of:)) }
        var ranks: [String: Int] = [:]
        for (rank, codes) in countries {
            for code in codes { ranks[code] = max(ranks[code] ?? rank, rank) }
        }
        let areas = byRank.keys.sorted(by: >).flatMap { rank in
            zip(byRank[rank] ?? [], countries[rank] ?? []).filter { ranks[$0.1] == rank }.map(\.0)
        }
        return (areas, ranks)
    }

    /// The nodes of the countries in `countries` (`inside`) and of the others (`outside`), each in their order.
    func split(_ nodes: [Node], countries: Set<String>) -> (inside: [Node], outside: [Node]) {
        var (inside, outside): ([Node], [Node]) = ([], [])
        for node in nodes {
            if countries.contains(country(of: node)) { inside.append(node) } else { outside.append(node) }
        }
        return (inside, outside)
    }

    /// The village and town nodes inside a municipality boundary of another name: Nominatim ranks such a node two
    /// ranks below the municipality ("make the node a subpart", `placex_update`) and names it in the address under
    /// its own type (`get_label_tag`), so a village node is the address's `village` before the municipality's
    /// (`_write_typed_address` keeps a key's first, finest value): Rotenboden in Triesenberg, Nendeln in Eschen, and
    /// in Moldova, whose sectors are suburb polygons, Buneti in Tohatin. A linked one (Gamprin's own node) is the
    /// municipality itself.
    func townNodesAsParts(_ townNodes: [Node], of cityBoundaries: [PendingArea]) -> [Node] {
        guard !cityBoundaries.isEmpty else { return [] }
        let boxes = BoxBuckets(cityBoundaries.map(\.shape.boundingBox))
        let keys = cityBoundaries.map { OSMParentStreets.key($0.name) }
        return townNodes.filter { node in
            guard node.type != "city" else { return false }
            let key = OSMParentStreets.key(node.name)
            return boxes.holding(x: node.point.x, y: node.point.y).contains { index in
                cityBoundaries[index].rank >= 16 && cityBoundaries[index].shape.contains(x: node.point.x, y: node.point.y)
                    && keys[index] != key
            }
        }
    }
}

extension OSMLevelSources {
    /// The place polygons of the suburb band (address rank 17-21: a suburb, a borough) and the finer ones that lie over
    /// the suburbs as a boundary of the neighbourhood band does (`OSMLevelMapping.withFinerBoundaries`), by their type's
    /// ranks in Nominatim 5.3's `settings/address-levels.json`, which ranks these types alike in every country (the
    /// default entry). Nominatim's area search takes every named polygon of address rank 4-25 up to the zoom's search
    /// rank (`_lookup_area_address`, nominatim_api/reverse.py) and names a finer one under its type in the address of
    /// what it holds (`insert_addresslines`): Shah Alam's `quarter` Seksyen 7 (search rank 20) answers its points at
    /// zoom 14 with its postcode, and a `neighbourhood` polygon (search rank 24) names Cuenca's IESS centro in the address
    /// of what it holds at zoom 18; at the zooms whose highest rank is below a place polygon's search rank the lookup
    /// passes over it (`ReverseGeocoder.dropSuburbPolygonAboveRank`). An area without a type, or without the settings
    /// file, is a suburb; a type the file does not rank, neither.
    static func placeAreasByBand(_ areas: [PendingArea]) -> (suburb: [PendingArea], finer: [PendingArea]) {
        guard let levels = NominatimAddressLevels.embedded else { return (areas, []) }
        var (suburb, finer): ([PendingArea], [PendingArea]) = ([], [])
        for area in areas {
            guard let type = area.placeType else {
                suburb.append(area)
                continue
            }
            let ranks = levels.placeRanks(type: type, countryCode: nil)
            switch ranks.flatMap({ NominatimAddressLevels.Band(addressRank: $0.address) }) {
            case .suburb: suburb.append(area)
            case .neighbourhood: finer.append(area)
            default: break
            }
        }
        return (suburb, finer)
    }
}
