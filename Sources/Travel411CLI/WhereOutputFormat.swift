import ArgumentParser
import Travel411Answers
import Travel411Batch

/// `where --format`: one point prints a placemark (text, json, geojson, nominatim); many points print rows
/// (csv, tsv, jsonl, geojson; json means jsonl there).
enum WhereOutputFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json, geojson, nominatim, csv, tsv, jsonl

    var placemarkFormat: PlacemarkFormat? { PlacemarkFormat(rawValue: rawValue) }

    var batchFormat: BatchFormat? { BatchFormat(argument: rawValue) }
}
