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

    /// The disc that holds the population at 3,000 people per km², at least 1 km: a neighbourhood's own
    /// extent, which a subLocality must hold the point in.
    @inline(__always)
    package static func coreMetres(population: Double) -> Double {
        max(minimumCatchmentMetres, (max(0, population) / (.pi * coreDensityPerSquareMetre)).squareRoot())
    }
}
