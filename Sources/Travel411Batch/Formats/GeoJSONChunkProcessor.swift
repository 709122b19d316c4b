import Travel411Core
import Travel411Geocoder
import Travel411Store

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
    /// The chunk's features, scanned before any is answered, and their properties and other members side by side:
    /// the rows are answered in the order of their places (`SpatialRowOrder`), as CSV's are.
    private var features: [ScannedFeature] = []
    private var properties: [JSONMember] = []
    private var others: [JSONMember] = []
    private let rowOrder = SpatialRowOrder()
    private let reorderedAnswers = GrowableByteArray(capacity: 1 << 20)

    /// A feature: its number in the input, its text when it is not a JSON object (`unparsed`), its members, and its
    /// point or what is wrong with it.
    private struct ScannedFeature {
        var number: Int
        var unparsed: Range<Int>?
        var rawGeometry: Range<Int>?
        var properties = 0..<0
        var others = 0..<0
        var point: RowPoint?
        var problem: String?
        var spot = LookupPrefetch.Spot.none
    }

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
        scanFeatures(bytes, end: chunk.length, firstFeature: chunk.unitsBefore + 1)
        let features = self.features, needs = encoder.needs
        let order = rowOrder.order(count: features.count) {
            features[$0].point.map { SIMD2($0.latitude, $0.longitude) } ?? SIMD2(.nan, .nan)
        }
        // In the input's order the answers go straight to the output; in another, each where it lies, gathered after.
        let isReordered = rowOrder.isReordered
        let answers = isReordered ? reorderedAnswers : output
        if isReordered { answers.count = 0 }
        properties.withUnsafeBufferPointer { properties in
            others.withUnsafeBufferPointer { others in
                for position in 0..<order.count {
                    let feature = features[order[position]]
                    counts.rows += 1
                    if feature.point == nil { counts.errors += 1 }
                    @inline(__always) func spot(_ ahead: Int) -> LookupPrefetch.Spot {
                        position &+ ahead < order.count ? features[order[position &+ ahead]].spot : .none
                    }
                    let step = PointsAhead.rowsPerStage
                    printer.prefetch(stages: (spot(3 &* step), spot(2 &* step), spot(step)), needs: needs)
                    let start = answers.count
                    let featureProperties = UnsafeBufferPointer(rebasing: properties[feature.properties])
                    encoder.appendGeocodedRow(
                        bytes, input: feature.unparsed.map { .unparsed($0) } ?? .members(featureProperties), point: feature.point,
                        rawGeometry: feature.rawGeometry, featureMembers: UnsafeBufferPointer(rebasing: others[feature.others]),
                        problem: "feature \(feature.number): \(feature.problem ?? "no coordinate")", printer: printer, to: answers)
                    if isReordered { rowOrder.noteAnswer(of: order[position], from: start, to: answers.count) }
                }
            }
        }
        if isReordered { rowOrder.gather(features.count, from: answers, to: output) }
        return counts
    }

    /// Scans every feature of `bytes[..<end]` into `features`, their properties and other members into
    /// `properties` and `others`.
    private func scanFeatures(_ bytes: UnsafePointer<UInt8>, end: Int, firstFeature: Int) {
        features.removeAll(keepingCapacity: true)
        properties.removeAll(keepingCapacity: true)
        others.removeAll(keepingCapacity: true)
        var number = firstFeature - 1
        var index = 0
        while true {
            while index < end && (JSONScanner.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ",")) { index += 1 }
            guard index < end else { break }
            number += 1
            let start = index
            var feature = ScannedFeature(number: number)
            do {
                index = try JSONScanner.scanObjectMembers(bytes, start, end, into: &featureMembers)
                switch analyzeFeature(bytes) {
                case .success(let analysis):
                    feature.rawGeometry = analysis.geometry
                    switch analysis.reading {
                    case .point(let found):
                        feature.point = found
                        feature.spot = LookupPrefetch.Spot(Coordinate(latitude: found.latitude, longitude: found.longitude))
                    case .problem(let message): feature.problem = message
                    }
                case .failure(let failure):
                    feature.rawGeometry = failure.geometry
                    feature.problem = failure.message
                }
                feature.properties = properties.count..<properties.count + propertyMembers.count
                feature.others = others.count..<others.count + otherMembers.count
                properties.append(contentsOf: propertyMembers)
                others.append(contentsOf: otherMembers)
            } catch {
                let elementEnd = FeatureArrayFramer.elementEnd(bytes, from: start, to: end)
                index = max(elementEnd, start + 1)
                feature.unparsed = start..<min(index, end)
                let reason = (error as? JSONSyntaxError)?.reason ?? "invalid JSON"
                feature.problem = "not a valid feature (\(reason))"
            }
            features.append(feature)
        }
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
