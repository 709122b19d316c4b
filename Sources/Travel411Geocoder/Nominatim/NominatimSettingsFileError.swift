import Foundation
import Travel411Core

/// A file of Nominatim's settings in Data/nominatim/ that does not read as Nominatim writes it: names the file and
/// what is wrong, and exits as any damaged input does.
struct NominatimSettingsFileError: Travel411Error {
    var file: String
    var reason: String
    var description: String { "\(file): \(reason)" }
    var exitStatus: ExitStatus { .dataError }
}
