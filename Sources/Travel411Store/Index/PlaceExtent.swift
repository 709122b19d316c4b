import Foundation
import Travel411Core

/// How far a place's name reaches, from its population alone: its catchment (where the place names
/// the locality) and its core disc (where it names the subLocality). The import sizes each place with
/// them, and the lookups' rules compare them (docs/fields.md, locality and subLocality).
package enum PlaceExtent {
    /// A place's core disc holds its population at this density (docs/fields.md, subLocality).
    static let coreDensityPerSquareMetre = 3000.0 / 1_000_000
    static let minimumCatchmentMetres = 1000.0
    /// A catchment's radius grows as population^0.4, 1 km at this many people (docs/fields.md, locality).
    static let catchmentReferencePopulation = 1800.0
    static let catchmentExponent = 0.4

    /// Where a town's name is still what a person calls the spot: the area of towns grows more slowly
    /// than their population (urban area ∝ population^0.8), so the radius grows as population^0.4, never
    /// less than the place's core disc. London (8.96 million) reaches 30.8 km, a town of 147,000 6 km,
    /// a village of 3,000 1.2 km.
    package static func catchmentMetres(population: Double) -> Double {
        max(
            coreMetres(population: population),
            1000 * Foundation.pow(max(0, population) / catchmentReferencePopulation, catchmentExponent))
    }

    /// How far a place answers a point that no catchment holds (docs/fields.md, locality): Nominatim 5.3's
    /// reach of a place node, its `reverse_place_diameter` by search rank (0.16° for a city, rank 16; 0.08°
    /// for a town, 18; 0.04° for a village, 19; 0.02° for a hamlet, 20), for the kind OpenStreetMap's
    /// `place=*` tagging gives a place of this population (a city from 100,000 people, a town from 10,000, a
    /// hamlet below 200, a village between, and where the population is unknown). Degrees are taken as degrees
    /// of latitude (111.32 km), a disc.
    package static func fallbackReachMetres(population: Double) -> Double {
        let degrees: Double
        switch population {
        case 100_000...: degrees = 0.16
        case 10_000..<100_000: degrees = 0.08
        case 1..<200: degrees = 0.02
        default: degrees = 0.04
        }
        return degrees * metresPerDegree
    }

    /// The longest `fallbackReachMetres`: how far around a point the places that may reach it lie.
    package static let longestFallbackReachMetres = 0.16 * metresPerDegree
    static let metresPerDegree = 111_320.0

    /// The disc that holds the population at 3,000 people per km², at least 1 km: a neighbourhood's own
    /// extent, which a subLocality must hold the point in.
    @inline(__always)
    package static func coreMetres(population: Double) -> Double {
        max(minimumCatchmentMetres, (max(0, population) / (.pi * coreDensityPerSquareMetre)).squareRoot())
    }
}
