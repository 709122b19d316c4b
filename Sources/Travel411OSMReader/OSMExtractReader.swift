import COSMium
import Foundation
import Travel411Core
import Travel411OSM

/// Reads an OpenStreetMap extract (.osm.pbf, or .osm XML, also gzip- or bzip2-compressed) with libosmium and
/// hands over its streets, addresses, interpolation lines, places, administrative and postcode boundaries and
/// named POIs, one `OSMFeature` at a time, in the file's order (nodes, then ways, then areas as their last member
/// way or relation comes by).
///
/// Memory stays bounded: node locations go to an index in a temporary file (`OSMNodeStore`: 16 bytes a node, or 8
/// bytes an id; in memory for a file under `inMemoryLocationsBelow`), and the multipolygon and boundary relations
/// and their member ways to temporary files too (COSMium's RelationAreaStore), each removed as soon as it is
/// created so that nothing is left behind whichever way the read ends. The file is read twice (the relations
/// first, so that their member ways are kept when they come by).
///
///     let summary = try OSMExtractReader(path: "liechtenstein.osm.pbf").read { feature in
///         if feature.kind == .street { print(feature.name ?? "", feature.highway?.highwayClass ?? "") }
///     }
///
/// Several files are read as one (`init(paths:)`): neighbouring extracts share the objects along their border,
/// and each object comes once, in its newest version, as `osmium merge` would write the files.
public struct OSMExtractReader: Sendable {
    /// The files read, as one (in the order given: the first file's version wins between equal versions).
    public let paths: [String]
    /// The first file read.
    public var path: String { paths.first ?? "" }
    /// Where the node location index goes while the file is read; the system's temporary directory by default.
    public var temporaryDirectory: String
    /// Threads decoding PBF blocks: 0 uses libosmium's shared pool (two fewer than the cores, at least one).
    /// By default at least two: on a machine of two cores libosmium's pool has one thread, and the first pass
    /// (ways and relations, whose callback does little) waits on that one decoding thread while the other core idles.
    public var decodingThreads = max(2, ProcessInfo.processInfo.activeProcessorCount - 2)
    /// A file smaller than this keeps its node locations in memory, not in a temporary file: the file index
    /// starts by writing 16 MB, most of the time a small file's read takes. 8 MB of PBF is about a million nodes,
    /// 16 MB of memory; an OSM XML file of 8 MB has far fewer.
    public var inMemoryLocationsBelow = 8 << 20
    /// Where node locations go; `automatic` chooses by the file's size and the ids its ways use.
    public var nodeStore = OSMNodeStore.automatic
    /// The path of a new file for the node store, e.g. on another disk (`import --nodes-file`, as osm2pgsql's
    /// `--flat-nodes`); removed as soon as it is created, like the temporary one. Nil: in `temporaryDirectory`.
    public var nodesFile: String?
    /// Whether `read`'s body runs on a thread of its own (`OrderedConsumerThread`), beside libosmium's: the two
    /// cores of a small machine both work. The body still sees the features one at a time, in the file's order.
    public var bodyOnOwnThread = true
    /// Whether every tag of an element crosses into Swift, rather than only those the classifier reads
    /// (`OSMFeatureClassifier.keysRead`): a test reads the fixtures both ways and expects the same features.
    package var handsOverEveryTag = false

    public init(path: String, temporaryDirectory: String? = nil) {
        self.init(paths: [path], temporaryDirectory: temporaryDirectory)
    }

    /// Reads the files as one; each must be sorted by type and id, as published extracts are.
    public init(paths: [String], temporaryDirectory: String? = nil) {
        self.paths = paths
        self.temporaryDirectory = temporaryDirectory ?? Self.systemTemporaryDirectory
    }

    static var systemTemporaryDirectory: String {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    }

    /// Calls `body` for every feature; an error thrown by `body` stops the read and is rethrown as it is.
    /// Faults that cost one feature are counted in the summary's warnings; a file that cannot be read throws an
    /// `OSMExtractError` (exit 66 when it cannot be opened, 65 when its data is wrong).
    /// `progress`, when given, is called after each block of the file (a few thousand elements), on this thread;
    /// `body` runs on another (`bodyOnOwnThread`), never at the same time as itself.
    @discardableResult
    public func read(progress: ((OSMReadProgress) -> Void)? = nil, _ body: (OSMFeature) throws -> Void) throws -> OSMReadSummary {
        guard !paths.isEmpty else { throw OSMExtractError(file: "", message: "no extract to read", exitStatus: .usage) }
        let formats = try paths.map(Self.detectFormat(of:))
        return try withoutActuallyEscaping(body) { body in
            let session = ReadSession(body: body, progress: progress, pipelined: bodyOnOwnThread)
            let totalSize = formats.reduce(0) { $0 &+ $1.size }
            var nodeExtents = [Double](repeating: .nan, count: 4 * paths.count)
            let status = withCOptions(format: formats[0].name, fileSize: totalSize, progress: progress != nil) { options in
                var counts = cosm_counts()
                var message = [CChar](repeating: 0, count: 1024)
                let context = Unmanaged.passUnretained(session).toOpaque()
                let status = nodeExtents.withUnsafeMutableBufferPointer { extents in
                    options.node_extents = extents.baseAddress
                    defer { options.node_extents = nil }
                    return paths.count == 1
                        ? cosm_read(path, &options, deliverElement, deliverWarning, context, &counts, &message, message.count)
                        : Self.withCStrings(paths) { cPaths in
                            Self.withCStrings(formats.map(\.name)) { cFormats in
                                cosm_read_files(
                                    cPaths, cFormats, paths.count, &options, deliverElement, deliverWarning, context, &counts, &message,
                                    message.count)
                            }
                        }
                }
                session.finishBody()
                session.summary.nodes = Int(counts.nodes)
                session.summary.ways = Int(counts.ways)
                session.summary.relations = Int(counts.relations)
                session.summary.nodeStore = OSMNodeStore(counts.node_store)
                session.summary.dataTimestamp = counts.data_timestamp > 0 ? Date(timeIntervalSince1970: Double(counts.data_timestamp)) : nil
                session.summary.fileExtents = (0..<paths.count).map { Self.extent(nodeExtents[4 * $0..<4 * $0 + 4]) }
                return (status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), counts)
            }
            if let error = session.error { throw error }
            try check(status.0, message: status.1, counts: status.2)
            return session.summary
        }
    }

    /// West, south, east, north as the read wrote them; nil for NaN (a file without node locations).
    private static func extent(_ values: ArraySlice<Double>) -> BoundingBox? {
        let edges = Array(values)
        guard edges.count == 4, !edges.contains(where: \.isNaN) else { return nil }
        return BoundingBox(minX: edges[0], minY: edges[1], maxX: edges[2], maxY: edges[3])
    }

    /// `strings` as a C array of C strings, valid during `body`.
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { $0.map { UnsafePointer<CChar>($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }

    private func check(_ status: cosm_status, message: String, counts: cosm_counts) throws {
        // The file the fault is in, when several are read as one.
        let path = paths.indices.contains(Int(counts.file_index)) ? paths[Int(counts.file_index)] : self.path
        switch status {
        case COSM_OK, COSM_STOPPED: return
        case COSM_IO_ERROR:
            let readSomething = counts.nodes + counts.ways + counts.relations > 0
            throw OSMExtractError(file: path, message: "cannot be read: \(message)", exitStatus: readSomething ? .ioError : .noInput)
        case COSM_TEMPORARY_FILE_ERROR:
            let hint = nodesFile == nil ? "set TMPDIR to a folder" : "give --nodes-file a path on a disk"
            throw OSMExtractError(
                file: path, message: "\(message) (\(hint) with room for 16 bytes per node of the extract)", exitStatus: .cannotCreate)
        case COSM_DATA_ERROR:
            // libosmium's words stay in the message (they are what a search finds); the most common fault is said plainly.
            let cutShort = message.contains("unexpected EOF") || message.contains("truncated")
            throw OSMExtractError(
                file: path,
                message: cutShort
                    ? "is cut short (an interrupted download?): \(message)\(Self.location(counts))"
                    : "is not a valid OpenStreetMap extract: \(message)\(Self.location(counts))")
        default:
            throw OSMExtractError(file: path, message: "could not be read: \(message)\(Self.location(counts))", exitStatus: .failure)
        }
    }

    /// Where the fault is, as near as the reader knows: after the last element it read.
    private static func location(_ counts: cosm_counts) -> String {
        switch counts.last_element_type {
        case COSM_NODE: return " (after node \(counts.last_element_id))"
        case COSM_WAY: return " (after way \(counts.last_element_id))"
        case COSM_RELATION: return " (after relation \(counts.last_element_id))"
        default: return ""
        }
    }

    /// The format from the file's first bytes, not its name: a renamed or mislabelled file still reads.
    /// PBF starts with a 4-byte header length, XML with `<`, gzip with 1F 8B, bzip2 with "BZh".
    static func detectFormat(of path: String) throws -> (name: String, size: Int) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw OSMExtractError(file: path, message: "no such file", exitStatus: .noInput)
        }
        guard !isDirectory.boolValue else {
            throw OSMExtractError(file: path, message: "is a folder, not an OpenStreetMap extract", exitStatus: .noInput)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw OSMExtractError(file: path, message: "cannot be opened for reading (permission denied?)", exitStatus: .noInput)
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 64)) ?? Data())
        guard !head.isEmpty else { throw OSMExtractError(file: path, message: "is empty, not an OpenStreetMap extract") }
        let size = Int((try? handle.seekToEnd()) ?? UInt64(Int.max))
        if head.starts(with: [0x1F, 0x8B]) { return ("osm.gz", size) }
        if head.starts(with: Array("BZh".utf8)) { return ("osm.bz2", size) }
        let text = head.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(head.dropFirst(3)) : head
        if let first = text.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") { return ("osm", size) }
        return ("pbf", size)
    }

    private func withCOptions<Result>(format: String, fileSize: Int, progress: Bool, _ body: (inout cosm_options) throws -> Result) rethrows
        -> Result
    {
        // The key lists as C strings, one after another in one array of pointers.
        let lists = [
            OSMFeatureClassifier.nodeKeys, OSMFeatureClassifier.lineKeys, OSMFeatureClassifier.areaKeys, keysRead,
            OSMFeatureClassifier.keyPrefixesRead,
        ]
        let strings = lists.joined().map { strdup($0) }
        let formatString = strdup(format)
        let directoryString = strdup(temporaryDirectory)
        let nodesFileString = nodesFile.map { strdup($0) }
        defer {
            strings.forEach { free($0) }
            free(formatString)
            free(directoryString)
            nodesFileString.map { free($0) }
        }
        return try strings.map { $0.map { UnsafePointer<CChar>($0) } }.withUnsafeBufferPointer { pointers in
            let starts = lists.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
            func list(_ index: Int) -> UnsafePointer<UnsafePointer<CChar>?>? { pointers.baseAddress.map { $0 + starts[index] } }
            var options = cosm_options()
            (options.node_keys, options.node_key_count) = (list(0), lists[0].count)
            (options.line_keys, options.line_key_count) = (list(1), lists[1].count)
            (options.area_keys, options.area_key_count) = (list(2), lists[2].count)
            if !handsOverEveryTag {
                (options.kept_keys, options.kept_key_count) = (list(3), lists[3].count)
                (options.kept_key_prefixes, options.kept_key_prefix_count) = (list(4), lists[4].count)
            }
            options.format = UnsafePointer(formatString)
            options.temporary_directory = UnsafePointer(directoryString)
            options.decoding_threads = Int32(clamping: decodingThreads)
            options.locations_in_memory = nodeStore == .automatic && fileSize < inMemoryLocationsBelow ? 1 : 0
            options.node_store = nodeStore.cValue
            options.nodes_file = nodesFileString.map { UnsafePointer($0) } ?? nil
            options.progress = progress ? deliverProgress : nil
            return try body(&options)
        }
    }
}

/// The state of one read, reached from libosmium's callbacks through their context pointer. The callbacks run on
/// the thread that called `cosm_read`, one at a time.
private final class ReadSession {
    let body: (OSMFeature) throws -> Void
    let progress: ((OSMReadProgress) -> Void)?
    /// Where the body runs when it has a thread of its own, with the features it has seen by kind.
    private var pipeline: OrderedConsumerThread<OSMFeature>?
    private var pipelineFeatures: [OSMFeatureKind: Int] = [:]
    var summary = OSMReadSummary()
    var error: (any Error)?
    /// Where the second pass's way and relation blocks began (`OSMReadProgress.nodeBytes`).
    var nodeBytes: Int?

    init(body: @escaping (OSMFeature) throws -> Void, progress: ((OSMReadProgress) -> Void)?, pipelined: Bool) {
        self.body = body
        self.progress = progress
        guard pipelined else { return }
        pipeline = OrderedConsumerThread(name: "travel411 OSM features") { [unowned self] feature in
            pipelineFeatures[feature.kind, default: 0] += 1
            try body(feature)
        }
    }

    /// Returns false to stop the read.
    func deliver(_ element: OSMTaggedElement) -> Bool {
        for feature in OSMFeatureClassifier.features(of: element) {
            if let pipeline {
                guard pipeline.send(feature) else { return false }
                continue
            }
            summary.features[feature.kind, default: 0] += 1
            do {
                try body(feature)
            } catch {
                self.error = error
                return false
            }
        }
        return true
    }

    /// Waits for the body's thread to see every feature sent, and takes its counts and its error.
    func finishBody() {
        guard let pipeline else { return }
        self.pipeline = nil
        do {
            try pipeline.finish()
        } catch {
            if self.error == nil { self.error = error }
        }
        summary.features.merge(pipelineFeatures, uniquingKeysWith: +)
    }
}

private func elementType(_ type: cosm_element_type) -> OSMElementType {
    switch type {
    case COSM_NODE: return .node
    case COSM_WAY: return .way
    default: return .relation
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// The keys libosmium keeps (`cosm_options.kept_keys`), in the order its key indices refer to.
private let keysRead = OSMFeatureClassifier.keysRead
private let keysReadRoles = OSMFeatureClassifier.keysReadRoles
private let keysReadBits = OSMFeatureClassifier.keysReadBits

private let deliverElement: cosm_element_callback = { element, context in
    guard let element = element?.pointee, let context else { return 1 }
    let session = Unmanaged<ReadSession>.fromOpaque(context).takeUnretainedValue()
    var tags = OSMTags()
    tags.reserveCapacity(element.tag_count)
    for index in 0..<element.tag_count {
        // A key of `keysRead` is that list's string, with its role known: the key's bytes are not decoded again.
        let keyIndex = element.tag_key_indices.map { Int($0[index]) } ?? -1
        guard let value = string(element.tag_values?[index]) else { continue }
        if keyIndex >= 0 && keyIndex < keysRead.count {
            tags.add(keysRead[keyIndex], value, role: keysReadRoles[keyIndex], keyBit: keysReadBits[keyIndex])
        } else if let key = string(element.tag_keys?[index]) {
            tags[key] = value
        }
    }
    let coordinates = UnsafeBufferPointer(start: element.coordinates, count: element.coordinates == nil ? 0 : element.point_count * 2)
    func point(_ index: Int) -> Point2D { Point2D(x: coordinates[2 * index], y: coordinates[2 * index + 1]) }
    let id = OSMElementID(elementType(element.element_type), element.id)
    let geometry: OSMTaggedElement.Geometry
    switch element.geometry_type {
    case COSM_GEOMETRY_POINT:
        guard element.point_count >= 1 else { return 0 }
        geometry = .point(point(0))
    case COSM_GEOMETRY_LINE:
        let points = (0..<element.point_count).map(point)
        // Closed over the nodes the extract has: osm2pgsql, which Nominatim 5.3 imports with, leaves a way's missing
        // nodes out before its style's `as_polygon()` (lib-lua/themes/nominatim/init.lua, `process_way`) assembles the
        // ring, so a campus cut by the extract's box is still an area; not when its end node is missing (the ring then
        // does not close). Taichung's Tunghai University (way 347094469, 46 of 120 nodes outside the export).
        let closed = element.first_node_id == element.last_node_id && (element.missing_nodes == 0 || points.first == points.last)
        geometry = .line(points, isClosed: closed)
    default:
        var polygons: [Polygon] = []
        var start = 0
        for ring in 0..<element.ring_count {
            let end = min(element.ring_ends[ring], element.point_count)
            let points = start < end ? (start..<end).map(point) : []
            start = end
            if element.ring_is_outer[ring] != 0 {
                polygons.append(Polygon(exterior: points))
            } else if !polygons.isEmpty {
                polygons[polygons.count - 1].holes.append(points)
            }
        }
        guard let first = polygons.first else { return 0 }
        geometry = .area(polygons.count == 1 ? .polygon(first) : .multiPolygon(polygons))
    }
    var tagged = OSMTaggedElement(element: id, tags: tags, geometry: geometry)
    tagged.firstNode = element.first_node_id
    tagged.lastNode = element.last_node_id
    tagged.firstHousenumber = string(element.first_node_housenumber)
    tagged.lastHousenumber = string(element.last_node_housenumber)
    tagged.labelNode = element.label_node_id
    tagged.isLabelMember = element.is_label_member != 0
    tagged.madeNoArea = element.made_no_area != 0
    if let numbers = element.node_housenumbers {
        tagged.nodeHousenumbers = (0..<element.point_count).map { string(numbers[$0]) }
        if let postcodes = element.node_postcodes {
            tagged.nodePostcodes = (0..<element.point_count).map { string(postcodes[$0]) }
        }
        tagged.nodeStreet = string(element.node_street)
    }
    return session.deliver(tagged) ? 0 : 1
}

private let deliverWarning: cosm_warning_callback = { warning, type, id, context in
    guard let context else { return }
    let session = Unmanaged<ReadSession>.fromOpaque(context).takeUnretainedValue()
    let reason: OSMReadWarning
    switch warning {
    case COSM_WARNING_RELATION_MEMBERS_MISSING: reason = .relationMembersMissing
    case COSM_WARNING_RING_NOT_CLOSED: reason = .ringNotClosed
    case COSM_WARNING_INVALID_AREA: reason = .invalidArea
    case COSM_WARNING_WAY_WITHOUT_NODES: reason = .wayWithoutNodes
    default: reason = .wayNodesMissing
    }
    session.summary.add(reason, OSMElementID(elementType(type), id))
}

private let deliverProgress: cosm_progress_callback = { pass, bytesRead, fileSize, context in
    guard let context else { return }
    let session = Unmanaged<ReadSession>.fromOpaque(context).takeUnretainedValue()
    let bytes = Int(clamping: bytesRead)
    if pass == 3, session.nodeBytes == nil { session.nodeBytes = bytes }
    session.progress?(
        OSMReadProgress(pass: min(Int(pass), 2), bytesRead: bytes, fileSize: Int(clamping: fileSize), nodeBytes: session.nodeBytes))
}

/// The import's way to read extracts (`ImportOptions.extractReader = .libosmium`).
public struct LibosmiumExtractReading: OSMExtractReading {
    public init() {}

    public func read(
        paths: [String], nodesFile: String?, progress: ((OSMReadProgress) -> Void)?, _ body: (OSMFeature) throws -> Void
    ) throws -> OSMReadSummary {
        var reader = OSMExtractReader(paths: paths)
        reader.nodesFile = nodesFile
        return try reader.read(progress: progress, body)
    }
}

extension OSMExtractReading where Self == LibosmiumExtractReading {
    /// libosmium's reader, `OSMExtractReader`.
    public static var libosmium: LibosmiumExtractReading { LibosmiumExtractReading() }
}
