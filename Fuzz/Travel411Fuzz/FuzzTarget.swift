// Only in the fuzz build (Scripts/fuzz: debug, -DFUZZING): @testable reaches the batch's block size, and a
// release build of the package, which builds every target, could not import Travel411Kit testably.
#if FUZZING
    import Foundation

    @testable import Travel411Guide
    @testable import Travel411Batch
    @testable import Travel411Core
    @testable import Travel411Geocoder
    @testable import Travel411Import
    @testable import Travel411OSM
    @testable import Travel411OSMReader
    @testable import Travel411Shapefile
    @testable import Travel411Store

    /// The readers that take files from anywhere, each fed the fuzzer's bytes the way the CLI feeds it a file.
    /// Any outcome but a crash, a hang or a leak is fine: errors are what broken input should give.
    enum FuzzTarget: String, CaseIterable {
        /// .shp + .shx + .dbf (+ .cpg, .prj) through ShapefileReader and shapelib, every record and field read.
        case shapefile
        /// `where --input`: CSV with each delimiter, TSV, JSON Lines, GeoJSON, sniffed or declared, to each output format.
        case batch
        /// `track`: GPX, NMEA, CSV and JSON Lines fixes.
        case track
        /// `quakes --feed`: USGS GeoJSON and CSV feeds.
        case quakes
        /// OpenStreetMap extracts through OSMExtractReader and libosmium: PBF (and, when the bytes say so, XML,
        /// gzip and bzip2), every feature's representative point computed.
        case pbf
        /// A street tile's page as the database stores it (`PageCompression`, `StreetTileCoding`), searched in
        /// every way a lookup searches one; or a page of records (`RecordPageCoding`), every field read.
        case pages

        static let selected: FuzzTarget = {
            let name = ProcessInfo.processInfo.environment["TRAVEL411_FUZZ_TARGET"] ?? ""
            guard let target = FuzzTarget(rawValue: name) else {
                FileHandle.standardError.write(
                    Data(
                        "TRAVEL411_FUZZ_TARGET must be one of: \(allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
                exit(64)
            }
            return target
        }()

        func run(_ input: [UInt8]) {
            switch self {
            case .shapefile: ShapefileFuzzing.run(input)
            case .batch: BatchFuzzing.run(input)
            case .track: TrackFuzzing.run(input)
            case .quakes: QuakeFuzzing.run(input)
            case .pbf: OSMFuzzing.run(input)
            case .pages: PageFuzzing.run(input)
            }
        }
    }

    /// One fuzz input holding several files: a little-endian UInt32 length before each file but the last, which
    /// takes the rest. `Scripts/fuzz` packs the seeds the same way (fuzz-pack), so a real shapefile is a seed.
    enum FuzzContainer {
        static func split(_ input: [UInt8], into count: Int) -> [[UInt8]] {
            var parts: [[UInt8]] = []
            var offset = 0
            for _ in 0..<(count - 1) {
                guard offset + 4 <= input.count else {
                    parts.append([])
                    continue
                }
                let length = input[offset..<offset + 4].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                offset += 4
                let end = min(input.count, offset + length)
                parts.append(Array(input[offset..<end]))
                offset = end
            }
            parts.append(offset < input.count ? Array(input[offset...]) : [])
            return parts
        }
    }

    /// Writes the fuzz input's files in place. FileManager.createFile writes atomically (a temporary file,
    /// fsync, rename), which costs more than a small input's whole run; a crash mid-write cannot matter here.
    enum FuzzFile {
        static func write(_ bytes: [UInt8], to path: String) {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard descriptor >= 0 else { return }
            bytes.withUnsafeBytes { _ = Foundation.write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
    }

    enum ShapefileFuzzing {
        /// In memory (tmpfs) when there is one: the reader and shapelib open files by path.
        static let directory: String = {
            let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
            let path = "\(base)/travel411-fuzz-\(getpid())"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }()

        /// Parts: .shp, .shx, .dbf, .cpg, .prj. An empty part means the file is absent.
        static func run(_ input: [UInt8]) {
            let parts = FuzzContainer.split(input, into: 5)
            let base = directory + "/f"
            for (part, fileExtension) in zip(parts, ["shp", "shx", "dbf", "cpg", "prj"]) {
                let path = base + "." + fileExtension
                if part.isEmpty {
                    unlink(path)
                } else {
                    FuzzFile.write(part, to: path)
                }
            }
            guard let reader = try? ShapefileReader(path: base + ".shp") else { return }
            for record in 0..<reader.recordCount {
                guard (try? reader.record(at: record)) != nil else { return }
                for field in reader.fields.indices {
                    _ = reader.string(record: record, field: field)
                    _ = reader.double(record: record, field: field)
                    _ = reader.integer(record: record, field: field)
                    _ = reader.bool(record: record, field: field)
                }
                _ = reader.isDeleted(record: record)
            }
        }
    }

    enum BatchFuzzing {
        static let output = open("/dev/null", O_WRONLY)
        static let inputFile = open(ShapefileFuzzing.directory + "/batch-input", O_RDWR | O_CREAT | O_TRUNC, 0o600)

        /// The first byte picks the input format (declared, or sniffed), the delimiter, the output format, the
        /// worker count and the block size; the rest is the input.
        static func run(_ input: [UInt8]) {
            guard let selector = input.first else { return }
            let formats: [BatchFormat?] = [nil, .csv, .tsv, .jsonl, .geojson]
            let delimiters: [CSVDelimiter?] = [nil] + CSVDelimiter.allCases
            var options = BatchOptions(showProgress: false, printsSummary: false)
            options.inputFormat = formats[Int(selector) % formats.count]
            if options.inputFormat == nil || options.inputFormat == .csv {
                options.csvDelimiter = delimiters[Int(selector / 5) % delimiters.count]
            }
            options.outputFormat = BatchFormat.allCases[Int(selector / 25) % BatchFormat.allCases.count]
            options.jobs = selector & 0x80 == 0 ? 1 : 2
            options.fields = [.name, .locality, .country, .distance]
            var geocoder = BatchGeocoder(options: options) { coordinate in
                var placemark = Placemark(location: coordinate)
                placemark.name = "Rue \"de\" l'Ours, 5;\t|"
                placemark.locality = "Zürich"
                placemark.country = coordinate.latitude > 0 ? "Nørway\n" : nil
                return placemark
            }
            // Small blocks make records straddle blocks, where the framers keep state.
            geocoder.blockSize = selector & 0x40 == 0 ? 64 : 4096
            // One input file for the whole process, rewritten in place (no create, fsync and rename per run): the
            // batch reads a descriptor from its offset to its end, as it reads a file given with --input.
            guard inputFile >= 0 else { return }
            ftruncate(inputFile, 0)
            input.dropFirst().withUnsafeBytes { _ = pwrite(inputFile, $0.baseAddress, $0.count, 0) }
            lseek(inputFile, 0, SEEK_SET)
            _ = try? geocoder.run(inputFD: inputFile, inputName: "fuzz", outputFD: output)
        }
    }

    enum TrackFuzzing {
        /// The first byte picks the format (or sniffing); the rest is the track.
        static func run(_ input: [UInt8]) {
            guard let selector = input.first else { return }
            let formats: [TrackInputFormat?] = [nil] + TrackInputFormat.allCases
            let format = formats[Int(selector) % formats.count]
            guard let reader = try? TrackReader(data: Data(input.dropFirst()), name: "fuzz", format: format) else { return }
            _ = try? reader.readAll()
        }
    }

    enum OSMFuzzing {
        static let path = ShapefileFuzzing.directory + "/extract.osm.pbf"

        /// Inputs of odd length put the node locations in the file-backed index (which an extract of 8 MB or more
        /// gets), in the same in-memory folder; the rest keep them in memory, as small files do. Inputs whose length
        /// is 2 more than a multiple of 4 are read as two extracts (the file twice), through the merge of several.
        static func run(_ input: [UInt8]) {
            FuzzFile.write(input, to: path)
            let paths = input.count % 4 == 2 ? [path, path] : [path]
            var reader = OSMExtractReader(paths: paths, temporaryDirectory: ShapefileFuzzing.directory)
            if input.count % 2 == 1 { reader.inMemoryLocationsBelow = 0 }
            _ = try? reader.read { feature in _ = feature.representativePoint }
        }
    }

    enum PageFuzzing {
        /// The 0.1° tile at 24.9° E, 60.1° N (Helsinki), the one tile of the directory.
        static let directory: BlobStorage = {
            var writer = ByteWriter()
            writer.append(UInt32(1))
            writer.append(UInt32(0))
            for value in [24.9, 60.1, 25.0, 60.2] { writer.append(value) }
            writer.append(TileGrid.tileKey(row: TileGrid.tileRow(60.15), column: TileGrid.tileColumn(24.95)))
            return BlobStorage(bytes: writer.bytes)
        }()

        /// The first byte picks the grid (streets or objects) or, with bit 3, a page of records; the rest is the
        /// stored page.
        static func run(_ input: [UInt8]) {
            guard let selector = input.first else { return }
            let grid = selector & 1 == 0 ? TileGrid.streets : .objects
            let blob = Array(input.dropFirst())
            let page = blob.withUnsafeBytes { try? PageCompression.page($0) }
            if selector & 8 != 0 {
                guard let page, let table = try? RecordTable(storage: page) else { return }
                for record in 0..<table.recordCount {
                    _ = table.coordinate(record)
                    for field in 0..<table.fieldCount { _ = table.view.bytes(record, field).reduce(0, &+) }
                }
                return
            }
            guard let page, let tiles = try? StreetTiles(directory: directory, grid: grid, loadPage: { _ in page }) else { return }
            for (latitude, longitude) in [(60.15, 24.95), (60.1001, 24.9001), (60.1999, 24.9999)] {
                let point = Coordinate(latitude: latitude, longitude: longitude)
                _ = tiles.nearest(to: point, radiusMetres: 2_000)
                _ = tiles.nearestInDegrees(
                    to: point, radiusDegrees: 0.05, onlyLine: selector & 2 == 0 ? nil : 1, pointsOnly: selector & 4 != 0)
                _ = tiles.outlinesHolding(point, reachDegrees: 0.05)
            }
        }
    }

    enum QuakeFuzzing {
        static func run(_ input: [UInt8]) {
            _ = try? QuakeFeed.read(Data(input), source: "fuzz")
        }
    }
#endif
