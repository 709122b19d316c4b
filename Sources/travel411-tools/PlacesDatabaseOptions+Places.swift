import Foundation
import Travel411CLI
import Travel411Geocoder
import Travel411Guide
import Travel411Import
import Travel411Store

extension PlacesDatabaseOptions {
    /// The places database for the travel commands, built from Data/ on first use (and rebuilt from it after
    /// an upgrade) with progress on stderr.
    func places() -> PlacesSource {
        let bar = ProgressBar()
        return PlacesSource(path: PlacesDatabaseLocation.resolve(explicitPath: databasePath)) { path, open in
            defer { bar.finish() }
            try PlacesDatabase.open(at: path, announce: Diagnostics.print, progress: bar.update, with: open)
        }
    }
}
