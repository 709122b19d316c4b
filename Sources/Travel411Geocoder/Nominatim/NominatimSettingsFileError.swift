import Foundation
import Travel411Core

/// A file of Nominatim's settings in Data/nominatim/ that does not read as Nominatim writes it: names the file and
/// what is wrong, and exits as any damaged input does.
package struct NominatimSettingsFileError: Travel411Error {
    var file: String
    var reason: String
    package var description: String { "\(file): \(reason)" }
    package var exitStatus: ExitStatus { .dataError }

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
}
