import Travel411Core
import Travel411Geocoder

/// GeoJSON features → output rows: one row per element of the `features` array. The feature's
/// properties are kept; a feature whose geometry is not a valid Point is flagged, not dropped.
final class GeoJSONChunkProcessor: ChunkProcessor {
    private let encoder: RowEncoder
    private let coordinates = CoordinateReader()
    private let printer: any PlacemarkPrinter
    /// The printer when it is the geocoder, for rows written by code specialised for it (`DelimitedChunkProcessor`).
    private let geocoder: ReverseGeocoder?
    private var featureMembers: [JSONMember] = []
    private var otherMembers: [JSONMember] = []
    private var geometryMembers: [JSONMember] = []
    private var propertyMembers: [JSONMember] = []

    init(encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.encoder = encoder
        self.printer = printer
        geocoder = printer as? ReverseGeocoder
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        if let geocoder { return process(chunk, into: output, printer: geocoder) }
        return process(chunk, into: output, printer: printer)
    }

    private func process<Printer: PlacemarkPrinter>(_ chunk: InputChunk, into output: GrowableByteArray, printer: Printer) -> RowCounts {
        var counts = RowCounts()
        let bytes = UnsafePointer(chunk.buffer.base)
        let end = chunk.length
        var feature = chunk.unitsBefore
        var index = 0
        while true {
            while index < end && (JSONScanner.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",")) { index += 1 }
            guard index < end else { break }
            feature += 1
            counts.rows += 1
            let start = index

            var unparsed: Range<Int>?
            var rawGeometry: Range<Int>?
            var point: RowPoint?
            var problem: String?
            do {
                index = try JSONScanner.scanObjectMembers(bytes, start, end, into: &featureMembers)
                switch analyzeFeature(bytes) {
                case .success(let analysis):
                    rawGeometry = analysis.geometry
                    switch analysis.reading {
                    case .point(let found): point = found
                    case .problem(let message): problem = message
                    }
                case .failure(let failure):
                    rawGeometry = failure.geometry
                    problem = failure.message
                }
            } catch {
                let elementEnd = FeatureArrayFramer.elementEnd(bytes, from: start, to: end)
                index = max(elementEnd, start + 1)
                unparsed = start..<min(index, end)
                otherMembers.removeAll(keepingCapacity: true)
                let reason = (error as? JSONSyntaxError)?.reason ?? "invalid JSON"
                problem = "not a valid feature (\(reason))"
            }

            if point == nil { counts.errors += 1 }
            let featureNumber = feature
            propertyMembers.withUnsafeBufferPointer { properties in
                otherMembers.withUnsafeBufferPointer { others in
                    encoder.appendGeocodedRow(
                        bytes, input: unparsed.map { .unparsed($0) } ?? .members(properties), point: point,
                        rawGeometry: rawGeometry, featureMembers: others,
                        problem: "feature \(featureNumber): \(problem ?? "no coordinate")", printer: printer, to: output)
                }
            }
        }
        return counts
    }

    private struct Analysis {
        var geometry: Range<Int>?
        var reading: CoordinateReader.Reading
    }

    private struct AnalysisFailure: Error {
        var geometry: Range<Int>?
        var message: String
    }

    /// Sorts the feature's members and reads its point.
    private func analyzeFeature(_ bytes: UnsafePointer<UInt8>) -> Result<Analysis, AnalysisFailure> {
        otherMembers.removeAll(keepingCapacity: true)
        propertyMembers.removeAll(keepingCapacity: true)
        var typeValue: Range<Int>?
        var geometryValue: Range<Int>?
        var propertiesValue: Range<Int>?
        for member in featureMembers {
            if JSONScanner.equals("\"type\"", bytes, from: member.keyStart, to: member.keyEnd) {
                typeValue = member.valueStart..<member.valueEnd
            } else if JSONScanner.equals("\"geometry\"", bytes, from: member.keyStart, to: member.keyEnd) {
                geometryValue = member.valueStart..<member.valueEnd
            } else if JSONScanner.equals("\"properties\"", bytes, from: member.keyStart, to: member.keyEnd) {
                propertiesValue = member.valueStart..<member.valueEnd
            } else {
                otherMembers.append(member)
            }
        }
        // A geometry of `null` is written back as null; any object is copied as it is.
        let geometry = geometryValue.flatMap { bytes[$0.lowerBound] == UInt8(ascii: "{") ? $0 : nil }
        if let propertiesValue, bytes[propertiesValue.lowerBound] == UInt8(ascii: "{") {
            _ = try? JSONScanner.scanObjectMembers(bytes, propertiesValue.lowerBound, propertiesValue.upperBound, into: &propertyMembers)
        } else if let propertiesValue, !JSONScanner.equals("null", bytes, from: propertiesValue.lowerBound, to: propertiesValue.upperBound)
        {
            return .failure(AnalysisFailure(geometry: geometry, message: "properties is not an object"))
        }
        if let typeValue, !JSONScanner.equals("\"Feature\"", bytes, from: typeValue.lowerBound, to: typeValue.upperBound) {
            return .failure(AnalysisFailure(geometry: geometry, message: "type is \(Self.text(bytes, typeValue)), not \"Feature\""))
        }
        guard let geometryValue else { return .failure(AnalysisFailure(geometry: nil, message: "no geometry")) }
        guard let geometry else {
            return .failure(AnalysisFailure(geometry: nil, message: "geometry is \(Self.text(bytes, geometryValue))"))
        }
        _ = try? JSONScanner.scanObjectMembers(bytes, geometry.lowerBound, geometry.upperBound, into: &geometryMembers)
        var geometryType: Range<Int>?
        var coordinatesValue: Range<Int>?
        for member in geometryMembers {
            if JSONScanner.equals("\"type\"", bytes, from: member.keyStart, to: member.keyEnd) {
                geometryType = member.valueStart..<member.valueEnd
            } else if JSONScanner.equals("\"coordinates\"", bytes, from: member.keyStart, to: member.keyEnd) {
                coordinatesValue = member.valueStart..<member.valueEnd
            }
        }
        guard let geometryType, JSONScanner.equals("\"Point\"", bytes, from: geometryType.lowerBound, to: geometryType.upperBound) else {
            let typeText = geometryType.map { Self.text(bytes, $0) } ?? "without a type"
            return .failure(AnalysisFailure(geometry: geometry, message: "geometry is \(typeText), not a Point"))
        }
        guard let coordinatesValue, let (longitude, latitude) = Self.positionCells(bytes, coordinatesValue) else {
            return .failure(AnalysisFailure(geometry: geometry, message: "the Point has no [longitude, latitude] numbers"))
        }
        return .success(Analysis(geometry: geometry, reading: coordinates.read(latitude: latitude, longitude: longitude, in: bytes)))
    }

    /// The first two numbers of a position array `[lon, lat, …]`.
    private static func positionCells(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> (InputCell, InputCell)? {
        let end = range.upperBound
        guard bytes[range.lowerBound] == UInt8(ascii: "[") else { return nil }
        let firstStart = JSONScanner.skipWhitespace(bytes, range.lowerBound + 1, end)
        guard let firstEnd = try? JSONScanner.scanNumber(bytes, firstStart, end) else { return nil }
        let index = JSONScanner.skipWhitespace(bytes, firstEnd, end)
        guard index < end, bytes[index] == UInt8(ascii: ",") else { return nil }
        let secondStart = JSONScanner.skipWhitespace(bytes, index + 1, end)
        guard let secondEnd = try? JSONScanner.scanNumber(bytes, secondStart, end) else { return nil }
        return (InputCell(start: firstStart, end: firstEnd, kind: .json), InputCell(start: secondStart, end: secondEnd, kind: .json))
    }

    private static func text(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>) -> String {
        let shown = min(range.count, 60)
        return String(decoding: UnsafeBufferPointer(start: bytes + range.lowerBound, count: shown), as: UTF8.self)
            + (shown < range.count ? "…" : "")
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
