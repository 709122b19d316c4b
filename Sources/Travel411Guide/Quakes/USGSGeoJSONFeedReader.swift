import Foundation
import Travel411Batch
import Travel411Core
import Travel411Store

/// Reads USGS's GeoJSON summary format: a FeatureCollection of Point features whose properties hold
/// `mag`, `place` and `time` (epoch milliseconds), with [longitude, latitude, depth] coordinates.
/// A single Feature (USGS's per-event "detail" GeoJSON) reads as a feed of one.
///
/// Foundation's JSONDecoder does the parsing; each feature decodes on its own, so one bad feature
/// is skipped with its index while the others are kept.
enum USGSGeoJSONFeedReader {
    static func read(_ data: Data, source: String) throws -> QuakeFeed {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let problem as RecordProblem {
            throw QuakeFeedError.notAFeed(source: source, reason: problem.reason)
        } catch {
            throw QuakeFeedError.notAFeed(source: source, reason: "it is not valid JSON: " + (JSONProblem.describe(data) ?? "\(error)"))
        }
        let slots: [FeatureSlot]
        switch document.type {
        case "FeatureCollection":
            guard let features = document.features else {
                throw QuakeFeedError.notAFeed(source: source, reason: "the FeatureCollection has no \"features\" array")
            }
            slots = features
        case "Feature":
            slots = [document.feature].compactMap { $0 }
        case let other?:
            throw QuakeFeedError.notAFeed(
                source: source, reason: "its GeoJSON type is '\(DisplayText.sanitized(other, limit: 40))', not FeatureCollection")
        case nil:
            throw QuakeFeedError.notAFeed(source: source, reason: "the JSON has no \"type\": \"FeatureCollection\"")
        }
        var quakes: [Quake] = []
        var skipped: [SkippedQuakeRecord] = []
        for (index, slot) in slots.enumerated() {
            switch slot.result {
            case .success(let quake): quakes.append(quake)
            case .failure(let problem):
                let location = document.type == "Feature" ? "the feature" : "features[\(index)]"
                skipped.append(SkippedQuakeRecord(location: location, reason: problem.reason))
            }
        }
        return QuakeFeed(format: .geojson, quakes: quakes, skipped: skipped, recordCount: slots.count)
    }

    /// The top level: which GeoJSON object it is, and its features.
    private struct Document: Decodable {
        var type: String?
        var features: [FeatureSlot]?
        /// The document itself when it is a single Feature.
        var feature: FeatureSlot?

        enum CodingKeys: String, CodingKey { case type, features }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                throw RecordProblem(reason: "the top level is not a JSON object")
            }
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            if type == "Feature" {
                feature = FeatureSlot(from: decoder)
            } else if container.contains(.features) {
                features = try? container.decode([FeatureSlot].self, forKey: .features)
            }
        }
    }

    /// One feature, decoded into a quake or into the reason it is skipped; never throws, so the
    /// array around it always decodes.
    private struct FeatureSlot: Decodable {
        var result: Result<Quake, RecordProblem>

        init(from decoder: any Decoder) {
            do {
                result = .success(try Self.quake(from: decoder))
            } catch let problem as RecordProblem {
                result = .failure(problem)
            } catch let error as DecodingError {
                result = .failure(RecordProblem(reason: Self.explain(error)))
            } catch {
                result = .failure(RecordProblem(reason: "\(error)"))
            }
        }

        enum FeatureKeys: String, CodingKey { case type, id, properties, geometry }
        enum GeometryKeys: String, CodingKey { case type, coordinates }
        enum PropertyKeys: String, CodingKey {
            case mag, place, time, updated, magType, type, status, net, nst, gap, dmin, rms, code
        }

        static func quake(from decoder: any Decoder) throws -> Quake {
            guard let feature = try? decoder.container(keyedBy: FeatureKeys.self) else {
                throw RecordProblem(reason: "not a JSON object")
            }
            guard feature.contains(.geometry), !(try feature.decodeNil(forKey: .geometry)) else {
                throw RecordProblem(reason: "no geometry")
            }
            let geometry = try feature.nestedContainer(keyedBy: GeometryKeys.self, forKey: .geometry)
            let geometryType = try geometry.decodeIfPresent(String.self, forKey: .type)
            guard geometryType == "Point" else {
                throw RecordProblem(
                    reason: "the geometry is \(geometryType.map { "a \(DisplayText.sanitized($0, limit: 40))" } ?? "untyped"), not a Point")
            }
            let coordinates = try geometry.decode([Double].self, forKey: .coordinates)
            guard coordinates.count >= 2 else {
                throw RecordProblem(
                    reason:
                        "the Point has \(coordinates.count) coordinate\(coordinates.count == 1 ? "" : "s"), not [longitude, latitude, depth]"
                )
            }
            guard feature.contains(.properties), !(try feature.decodeNil(forKey: .properties)) else {
                throw RecordProblem(reason: "no properties")
            }
            let properties = try feature.nestedContainer(keyedBy: PropertyKeys.self, forKey: .properties)
            guard let milliseconds = try properties.decodeIfPresent(Double.self, forKey: .time) else {
                throw RecordProblem(reason: "properties.time is missing or null")
            }
            var quake = Quake(
                time: try timestamp(milliseconds, field: "properties.time"),
                coordinate: try QuakeFieldCheck.coordinate(latitude: coordinates[1], longitude: coordinates[0]))
            if coordinates.count > 2 { quake.depthKilometres = coordinates[2] }
            quake.magnitude = try properties.decodeIfPresent(Double.self, forKey: .mag)
            quake.place = nonEmpty(try properties.decodeIfPresent(String.self, forKey: .place))
            quake.updated = try properties.decodeIfPresent(Double.self, forKey: .updated).map {
                try timestamp($0, field: "properties.updated")
            }
            quake.magnitudeType = nonEmpty(try properties.decodeIfPresent(String.self, forKey: .magType))
            quake.eventType = nonEmpty(try properties.decodeIfPresent(String.self, forKey: .type))
            quake.status = nonEmpty(try properties.decodeIfPresent(String.self, forKey: .status))
            quake.network = nonEmpty(try properties.decodeIfPresent(String.self, forKey: .net))
            quake.stationCount = try properties.decodeIfPresent(Double.self, forKey: .nst).map {
                try QuakeFieldCheck.count($0, field: "properties.nst")
            }
            quake.azimuthalGap = try properties.decodeIfPresent(Double.self, forKey: .gap)
            quake.nearestStationDegrees = try properties.decodeIfPresent(Double.self, forKey: .dmin)
            quake.rms = try properties.decodeIfPresent(Double.self, forKey: .rms)
            // USGS's event id is the feature's id; older feeds without one have net + code.
            if let id = try? feature.decodeIfPresent(String.self, forKey: .id) {
                quake.id = nonEmpty(id)
            } else if let network = quake.network, let code = try? properties.decodeIfPresent(String.self, forKey: .code) {
                quake.id = network + code
            }
            return quake
        }

        private static func timestamp(_ milliseconds: Double, field: String) throws -> UTCTimestamp {
            // ±10,000 years either side of 1970 is far beyond any catalogue, and keeps Int64 safe.
            guard milliseconds.isFinite, abs(milliseconds) < 3.2e14 else {
                throw RecordProblem(reason: "\(field) \(milliseconds) is not a time in epoch milliseconds")
            }
            return UTCTimestamp(millisecondsSince1970: Int64(milliseconds.rounded()))
        }

        private static func nonEmpty(_ text: String?) -> String? {
            guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return text
        }

        /// "properties.mag is a string, not a number", from JSONDecoder's coding path.
        static func explain(_ error: DecodingError) -> String {
            /// The path inside the feature: what comes after `features[12]`, which the message already names.
            func path(_ codingPath: [any CodingKey]) -> String {
                let inFeature = codingPath.first?.stringValue == "features" ? Array(codingPath.dropFirst(2)) : codingPath
                return inFeature.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop(while: { $0 == "." })
                    .description
            }
            switch error {
            case .typeMismatch(let type, let context):
                let wanted =
                    type == Double.self
                    ? "a number" : type == String.self ? "a string" : type is [Double].Type ? "an array of numbers" : "\(type)"
                return "\(path(context.codingPath)) is not \(wanted)"
            case .valueNotFound(_, let context):
                return "\(path(context.codingPath)) is null"
            case .keyNotFound(let key, let context):
                return "\((path(context.codingPath) + "." + key.stringValue).drop(while: { $0 == "." })) is missing"
            case .dataCorrupted(let context):
                return "\(path(context.codingPath)): \(context.debugDescription)"
            @unknown default:
                return "\(error)"
            }
        }
    }
}

/// Where a JSON text goes wrong, as "line 1, column 345: …", found with the project's strict
/// scanner so the message points at the byte; `NaN` and `Infinity` are named, since some writers
/// put them where a number belongs.
enum JSONProblem {
    static func describe(_ data: Data) -> String? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let end = raw.count
            let start = JSONScanner.skipWhitespace(base, 0, end)
            do {
                let after = try JSONScanner.scanValue(base, start, end)
                let rest = JSONScanner.skipWhitespace(base, after, end)
                if rest < end { return "\(position(base, rest)): text after the JSON value" }
                return nil
            } catch let error as JSONSyntaxError {
                let offset = min(error.offset, end)
                let token = String(decoding: UnsafeBufferPointer(start: base + offset, count: min(8, end - offset)), as: UTF8.self)
                for word in ["NaN", "-NaN", "Infinity", "-Infinity"] where token.hasPrefix(word) {
                    return "\(position(base, offset)): \(word) is not a JSON number (JSON has no NaN or infinities)"
                }
                return "\(position(base, offset)): \(error.reason)"
            } catch {
                return nil
            }
        }
    }

    private static func position(_ bytes: UnsafePointer<UInt8>, _ offset: Int) -> String {
        var line = 1, column = 1
        for index in 0..<offset {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }
}
