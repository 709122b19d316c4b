import Dispatch
import Foundation

/// Builds the geocoder's lookup structures from what the import collected and stores them.
struct LookupTablesWriter {
    /// A catchment holds its population at this density; see README "How a locality is chosen".
    static let catchmentDensityPerSquareMetre = 3000.0 / 1_000_000
    static let minimumCatchmentMetres = 1000.0

    let collector: LookupCollector
    let database: SQLiteDatabase
    let progress: (ImportProgress) -> Void

    func write() throws {
        try database.execute(PlacesSchema.createStatements)
        let levels = PlacesSchema.AreaLevel.allCases.filter { collector.areas[$0] != nil }
        var built = [AreaIndexBuilder.Output?](repeating: nil, count: levels.count)
        progress(ImportProgress(stage: "indexing areas", completed: 0, total: levels.count))
        built.withUnsafeMutableBufferPointer { output in
            let output = output
            DispatchQueue.concurrentPerform(iterations: levels.count) { i in
                guard let data = collector.areas[levels[i]] else { return }
                output[i] = data.builder.build()
                // Its rings are in the built tiles now: free them while the other levels still build.
                data.builder = AreaIndexBuilder()
            }
        }
        // Each level's tiles go to the database and out of memory one by one; only the levels that the
        // steps below look points up in stay indexed.
        var indexes: [PlacesSchema.AreaLevel: AreaIndex] = [:]
        for (i, level) in levels.enumerated() {
            guard let output = built[i] else { continue }
            built[i] = nil
            if level == .country || level == .admin { indexes[level] = try AreaIndex(built: output) }
            try store(level, output)
        }
        progress(ImportProgress(stage: "indexing areas", completed: levels.count, total: levels.count))

        let countryCodes = fillMissingCountryCodes(countries: indexes[.country])
        let localityAdmins = collector.localities.map { locality in
            indexes[.admin]?.featureIndex(longitude: locality.coordinate.longitude, latitude: locality.coordinate.latitude)
        }
        let adminNames = administrativeAreaNames(localityAdmins: localityAdmins, localityCountries: countryCodes)
        try storeAreaFeatures(adminNames: adminNames)
        progress(ImportProgress(stage: "indexing places", completed: 0, total: 3))
        try storeLocalities(countryCodes: countryCodes, admins: localityAdmins)
        try storePostcodes()
        try storeAddresses()
        try storeStreets()
        progress(ImportProgress(stage: "indexing places", completed: 3, total: 3))
    }

    /// One row per tile that is not empty: its reference, and the quadtree blob when a border crosses it.
    private func store(_ level: PlacesSchema.AreaLevel, _ output: AreaIndexBuilder.Output) throws {
        let blobs = Dictionary(uniqueKeysWithValues: output.tiles.map { ($0.index, $0.blob) })
        let insert = try database.prepare("INSERT INTO travel411_area_tiles (key, reference, blob) VALUES (?, ?, ?)")
        for (index, reference) in output.grid.enumerated() where AreaIndex.tag(reference) != AreaIndex.Tag.empty.rawValue {
            try insert.run([.integer(level.tileKey(index)), .integer(Int64(reference)), blobs[index].map(SQLValue.blob) ?? .null])
        }
    }

    /// OpenStreetMap places carry no country: take it from the country polygon they lie in.
    private func fillMissingCountryCodes(countries: AreaIndex?) -> [String?] {
        let countryFeatures = collector.areas[.country]?.features ?? []
        return collector.localities.map { locality in
            if let code = locality.countryCode { return code }
            guard let countries, let f = countries.featureIndex(longitude: locality.coordinate.longitude, latitude: locality.coordinate.latitude) else { return nil }
            return countryFeatures[f].code
        }
    }

    /// The first-level name for each admin polygon, derived from the data (README "Administrative areas"):
    /// each polygon takes the GeoNames admin1 most of its localities carry. Where several polygons of a
    /// country share that name, Natural Earth has split the first level into finer units (UK boroughs,
    /// French departments) and the shared name is the administrative area; where a polygon has it alone,
    /// the polygon is itself a first-level unit and keeps its own (ISO 3166-2) name: Bayern, California.
    private func administrativeAreaNames(localityAdmins: [Int?], localityCountries: [String?]) -> [(area: String?, subArea: String?)] {
        let features = collector.areas[.admin]?.features ?? []
        var votes = [[String: (count: Int, population: Double)]](repeating: [:], count: features.count)
        do {
            for (i, locality) in collector.localities.enumerated() {
                guard let admin1 = locality.admin1, let f = localityAdmins[i] else { continue }
                // Localities just over a border would vote for the wrong country's names.
                if let code = features[f].countryCode, let localityCode = localityCountries[i], code != localityCode { continue }
                let current = votes[f][admin1] ?? (0, 0)
                votes[f][admin1] = (current.count + 1, current.population + locality.population)
            }
        }
        let majority: [String?] = votes.map { tally in
            tally.max { a, b in a.value.count != b.value.count ? a.value.count < b.value.count : a.value.population < b.value.population }?.key
        }
        var sharing: [String: Int] = [:]
        for (f, label) in majority.enumerated() {
            if let label { sharing["\(features[f].countryCode ?? "")|\(label)", default: 0] += 1 }
        }
        return features.enumerated().map { f, feature in
            guard let label = majority[f], sharing["\(feature.countryCode ?? "")|\(label)", default: 0] >= 2 else {
                return (feature.name, nil)
            }
            return (label, feature.name == label ? nil : feature.name)
        }
    }

    private func storeAreaFeatures(adminNames: [(area: String?, subArea: String?)]) throws {
        let insert = try database.prepare("""
            INSERT INTO travel411_areas (level, feature, layer, fid, name, code, country_code, administrative_area, sub_administrative_area)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (level, data) in collector.areas {
            for (f, feature) in data.features.enumerated() {
                let derived: (area: String?, subArea: String?) = level == .admin && f < adminNames.count ? adminNames[f] : (nil, nil)
                try insert.run([
                    .text(level.rawValue), .integer(Int64(f)), .text(feature.layer), .integer(feature.fid),
                    feature.name.map(SQLValue.text) ?? .null, feature.code.map(SQLValue.text) ?? .null,
                    feature.countryCode.map(SQLValue.text) ?? .null,
                    derived.area.map(SQLValue.text) ?? .null, derived.subArea.map(SQLValue.text) ?? .null,
                ])
            }
        }
    }

    static func catchmentMetres(population: Double) -> Double {
        max(minimumCatchmentMetres, (population / (.pi * catchmentDensityPerSquareMetre)).squareRoot())
    }

    private func storeLocalities(countryCodes: [String?], admins: [Int?]) throws {
        let localities = collector.localities
        var places: [PointIndexBuilder.Place] = []
        places.reserveCapacity(localities.count)
        for (i, locality) in localities.enumerated() {
            var place = PointIndexBuilder.Place(coordinate: locality.coordinate, id: UInt32(i))
            place.catchmentMetres = Self.catchmentMetres(population: locality.population)
            place.population = UInt32(min(locality.population, Double(UInt32.max)))
            place.country = countryCodes[i]
            place.group = admins[i].map { UInt32($0 + 1) } ?? 0
            places.append(place)
        }
        let records = PagedRecords.build(
            coordinates: localities.map(\.coordinate),
            fields: localities.enumerated().map { i, l in [l.name, l.admin1, l.admin2, countryCodes[i]] },
            fieldCount: PlacesSchema.LocalityField.allCases.count)
        try storePoints(.locality, coordinates: localities.map(\.coordinate), tree: PointIndexBuilder().build(places, withGroups: true), records: records)
        let cellPlaces = places.map {
            LocalityCellsBuilder.Place(coordinate: $0.coordinate, id: $0.id, catchmentMetres: $0.catchmentMetres,
                                        population: $0.population, country: PointIndex.packCountry($0.country), group: $0.group)
        }
        try storePages(LocalityCellsBuilder().build(cellPlaces), kind: .localityCells, level: 0)
        try storePages([(0, LocalityCellsBuilder().groups(cellPlaces))], kind: .localityGroups, level: 0)
        // A plain table too, for searches by name (`destination create --city`).
        let insert = try database.prepare("""
            INSERT INTO travel411_localities (id, name, admin1, admin2, cc, population, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (i, l) in localities.enumerated() {
            try insert.run([
                .integer(Int64(i)), .text(l.name), l.admin1.map(SQLValue.text) ?? .null, l.admin2.map(SQLValue.text) ?? .null,
                countryCodes[i].map(SQLValue.text) ?? .null, .integer(Int64(l.population)),
                .real(l.coordinate.latitude), .real(l.coordinate.longitude),
            ])
        }
        try database.execute(PlacesSchema.localityIndexStatements)
    }

    private func storePostcodes() throws {
        let postcodes = collector.postcodes
        let places = postcodes.enumerated().map { PointIndexBuilder.Place(coordinate: $1.coordinate, id: UInt32($0)) }
        let records = PagedRecords.build(coordinates: nil, fields: postcodes.map { [$0.code] }, fieldCount: 1)
        try storePoints(.postcode, coordinates: postcodes.map(\.coordinate), tree: PointIndexBuilder().build(places, withGroups: false), records: records)
    }

    private func storeAddresses() throws {
        let addresses = collector.addresses
        let places = addresses.enumerated().map { PointIndexBuilder.Place(coordinate: $1.coordinate, id: UInt32($0)) }
        let records = PagedRecords.build(
            coordinates: nil,
            fields: addresses.map { [$0.houseNumber, $0.street, $0.postcode] },
            fieldCount: PlacesSchema.AddressField.allCases.count)
        try storePoints(.address, coordinates: addresses.map(\.coordinate), tree: PointIndexBuilder().build(places, withGroups: false), records: records)
    }

    private func storePoints(_ level: PlacesSchema.PointLevel, coordinates: [Coordinate], tree: PointIndexBuilder.Output, records: [[UInt8]]) throws {
        var box = BoundingBox.empty
        for c in coordinates { box.extend(x: c.longitude, y: c.latitude) }
        let bounds: [SQLValue] = box.isEmpty ? [.null, .null, .null, .null] : [.real(box.minX), .real(box.minY), .real(box.maxX), .real(box.maxY)]
        try database.run("INSERT INTO travel411_point_indexes (level, min_x, min_y, max_x, max_y, tree, record_pages) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [.text(level.rawValue)] + bounds + [.blob(tree.top), .integer(Int64(records.count))])
        try storePages(tree.pages, kind: .pointNodes, level: level.ordinal)
        try storePages(records.enumerated().map { ($0, $1) }, kind: .pointRecords, level: level.ordinal)
    }

    private func storePages(_ pages: [(number: Int, blob: [UInt8])], kind: PlacesSchema.PageKind, level: Int64) throws {
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        for page in pages { try insert.run([.integer(kind.key(level: level, page: page.number)), .blob(page.blob)]) }
    }

    private func storeStreets() throws {
        let names = collector.streetNames
        let records = PagedRecords.build(
            coordinates: nil,
            fields: names.map { [$0] }, fieldCount: 1)
        try database.run("INSERT INTO travel411_line_indexes (level, lines, record_pages) VALUES (?, ?, ?)",
                         [.text("thoroughfare"), .blob(collector.streets.build()), .integer(Int64(records.count))])
        try storePages(records.enumerated().map { ($0, $1) }, kind: .streetRecords, level: 0)
    }
}
