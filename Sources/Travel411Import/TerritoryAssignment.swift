import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// Which country each country polygon part is indexed under, and which country each time zone
/// stands for (docs/fields.md: overseas territories, territorial waters).
///
/// Natural Earth files French Guiana, Réunion or Bonaire inside France and the Netherlands, while
/// ISO 3166-1 gives each its own code. tzdata knows them apart: every land time zone belongs to one
/// country (zone.tab), and the time-zone polygons follow coasts and borders closely. So a polygon
/// part whose edge lies mostly in the time zone of another country, one that has no polygon of its
/// own in the country layer, becomes that country (a territory named by iso3166.tab). A part whose
/// zones belong to its own country, or to a neighbour with its own polygon (a border drawn a little
/// differently), stays as it is: the rule only adds codes the layer lacks.
struct TerritoryAssignment {
    typealias AreaFeature = LookupCollector.AreaFeature

    /// The country features, with the territories appended.
    var features: [AreaFeature]
    /// The polygon parts to index, as the feature they go to and where they are (polygon `polygon` of country
    /// feature `source`), in ascending feature order; `forEachPart` reads their rings.
    var parts: [(feature: Int, source: Int, polygon: Int)]
    /// Each country feature's polygons, read back one feature at a time (`LookupCollector.countryPolygons`).
    private let polygonsOf: (Int) -> [Polygon]
    /// For each time-zone feature, the country feature its zone belongs to; -1 for none (`Etc/` zones
    /// at sea, or no zone.tab).
    var countryOfZoneFeature: [Int32]
    /// "French Guiana (GF), from parts of France": what the rule did, for the import summary.
    var territories: [String]

    /// Up to this many vertices of a part's outer ring are looked up in the time zones.
    static let samplesPerRing = 64

    init(
        countries: [AreaFeature], polygons: [[Polygon]], zones: (any AreaFeatureLookup)?, zoneFeatures: [AreaFeature],
        tables: TimeZoneCountries
    ) {
        self.init(
            countries: countries, polygonsOf: { $0 < polygons.count ? polygons[$0] : [] }, zones: zones, zoneFeatures: zoneFeatures,
            tables: tables)
    }

    /// `polygonsOf`: country feature f's polygons, asked for once per feature here and again by `forEachPart`.
    init(
        countries: [AreaFeature], polygonsOf: @escaping (Int) -> [Polygon], zones: (any AreaFeatureLookup)?,
        zoneFeatures: [AreaFeature], tables: TimeZoneCountries
    ) {
        self.polygonsOf = polygonsOf
        var features = countries
        let zoneCountry: [String?] = zoneFeatures.map { $0.name.flatMap { tables.countryOfZone[$0] } }
        let ownCodes = Set(countries.compactMap(\.code))
        var territoryFeature: [String: Int] = [:]
        var split: [String: (name: String, from: Set<String>)] = [:]
        var assigned: [(feature: Int, source: Int, polygon: Int)] = []
        for (f, feature) in countries.enumerated() {
            for (p, polygon) in polygonsOf(f).enumerated() {
                guard let zones, !tables.isEmpty,
                    let code = Self.majorityZoneCountry(of: polygon.exterior, zones: zones, zoneCountry: zoneCountry),
                    code != feature.code, !ownCodes.contains(code), let name = tables.nameOfCountry[code]
                else {
                    assigned.append((f, f, p))
                    continue
                }
                let target: Int
                if let known = territoryFeature[code] {
                    target = known
                } else {
                    target = features.count
                    territoryFeature[code] = target
                    features.append(AreaFeature(layer: feature.layer, fid: feature.fid, name: name, code: code, countryCode: code))
                }
                split[code, default: (name, [])].from.insert(feature.name ?? feature.code ?? "?")
                assigned.append((target, f, p))
            }
        }
        // The index answers the first containing polygon in feature order, and wants them added so.
        let parts = assigned.enumerated().sorted {
            $0.element.feature != $1.element.feature ? $0.element.feature < $1.element.feature : $0.offset < $1.offset
        }
        .map(\.element)
        let territories = split.sorted { $0.key < $1.key }.map { code, value in
            "\(value.name) (\(code)), from parts of \(value.from.sorted().joined(separator: ", "))"
        }
        // A zone whose country has no polygon at all (an atoll state the 1:10m layer leaves out) still
        // names it: a feature without polygons, which only the time zones lead to.
        var featureOfCode: [String: Int] = [:]
        for (f, feature) in features.enumerated() {
            if let code = feature.code, featureOfCode[code] == nil { featureOfCode[code] = f }
        }
        var countryOfZone: [Int32] = []
        for code in zoneCountry {
            guard let code else {
                countryOfZone.append(-1)
                continue
            }
            if let f = featureOfCode[code] {
                countryOfZone.append(Int32(f))
                continue
            }
            guard let name = tables.nameOfCountry[code] else {
                countryOfZone.append(-1)
                continue
            }
            let f = features.count
            features.append(AreaFeature(layer: "iso3166.tab", fid: 0, name: name, code: code, countryCode: code))
            featureOfCode[code] = f
            countryOfZone.append(Int32(f))
        }
        self.features = features
        self.parts = parts
        self.territories = territories
        countryOfZoneFeature = countryOfZone
    }

    /// Hands each part's feature and rings over in `parts`' order, reading a country's polygons again only when
    /// the part's source feature changes (the territories' parts, moved after the others, are few).
    func forEachPart(_ body: (Int, [Ring]) throws -> Void) rethrows {
        var source = -1, polygons: [Polygon] = []
        for part in parts {
            if part.source != source { (source, polygons) = (part.source, polygonsOf(part.source)) }
            guard part.polygon < polygons.count else { continue }
            let polygon = polygons[part.polygon]
            try body(part.feature, [polygon.exterior] + polygon.holes)
        }
    }

    /// The country whose zones hold more than half of the ring's sampled vertices, if one does.
    static func majorityZoneCountry(of ring: Ring, zones: any AreaFeatureLookup, zoneCountry: [String?]) -> String? {
        guard !ring.isEmpty else { return nil }
        let step = max(1, ring.count / samplesPerRing)
        var counts: [String: Int] = [:]
        var samples = 0
        for i in stride(from: 0, to: ring.count, by: step) {
            samples += 1
            guard let zone = zones.featureIndex(longitude: ring[i].x, latitude: ring[i].y), zone < zoneCountry.count,
                let code = zoneCountry[zone]
            else { continue }
            counts[code, default: 0] += 1
        }
        guard let (code, count) = counts.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }),
            count * 2 > samples
        else { return nil }
        return code
    }
}
