import CSQLite
import Foundation
import Travel411Core
import Travel411Store

/// The traveller's own small SQLite file: destinations, the City's move history and which trip is
/// current. Every change runs in one BEGIN IMMEDIATE transaction, so concurrent processes queue up
/// (WAL plus a busy timeout) instead of failing or overwriting each other, and a process killed
/// midway leaves the file as it was before that change.
public final class TravelStore {
    /// How long a writer waits for another process's transaction before giving up.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 5_000

    public let path: String
    let database: SQLiteDatabase
    private let busyTimeoutMilliseconds: Int32

    /// Opens (creating when missing) the state file at `path`, upgrades its schema and, on first
    /// use, creates the book's London trip.
    public init(path: String, busyTimeoutMilliseconds: Int32 = TravelStore.defaultBusyTimeoutMilliseconds) throws {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        } catch let error as SQLiteError {
            throw TravelStoreError.cannotOpen(path: path, detail: error.message)
        }
        self.database = database
        database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        // SQLite answers "busy" at once, without waiting, where waiting could deadlock; several processes setting
        // up a fresh file's journal and schema together can meet that (one of four concurrent first `move-city`
        // runs failed so, once, in 0.16 s). The setup is tried again until the busy timeout has passed, on a
        // clock that a change of the wall clock does not move.
        let clock = ContinuousClock(), started = clock.now
        let timeout = Duration.milliseconds(Int64(busyTimeoutMilliseconds))
        while true {
            do {
                try translatingSQLiteErrors {
                    try checkOwnership()
                    try database.execute("PRAGMA foreign_keys = ON")
                    // WAL lets readers carry on while one process writes; the mode is stored in the file.
                    if try database.firstRow("PRAGMA journal_mode")?.first?.stringValue?.lowercased() != "wal" {
                        try database.execute("PRAGMA journal_mode = WAL")
                    }
                    try migrate()
                }
                return
            } catch TravelStoreError.locked where clock.now - started < timeout {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    // MARK: Reading

    public func destinations() throws -> [Destination] {
        try translatingSQLiteErrors { try readDestinations(where: "1", []) }
    }

    /// The current destination, or nil when none is chosen.
    public func currentDestination() throws -> Destination? {
        try translatingSQLiteErrors { try readCurrent() }
    }

    public func currentDestinationName() throws -> String? { try currentDestination()?.name }

    /// The destination named `name` (any case), or the current one when `name` is nil.
    public func destination(named name: String?) throws -> Destination {
        try translatingSQLiteErrors { try resolve(name) }
    }

    /// The City's moves for a destination (nil: the current one), oldest first.
    public func moveHistory(of name: String?) throws -> [CityMove] {
        try translatingSQLiteErrors {
            let destination = try resolve(name)
            return try readMoves(of: destination)
        }
    }

    // MARK: Changing

    /// Adds a destination and makes it current.
    @discardableResult
    public func createDestination(named rawName: String, airport: Airport, city: DestinationCity) throws -> Destination {
        let name = try Self.validatedName(rawName)
        return try writing {
            if try findDestination(named: name) != nil { throw TravelStoreError.destinationExists(name) }
            try database.run(
                """
                INSERT INTO destinations (name, airport_icao, airport_iata, airport_name, airport_city,
                    airport_subdivision, airport_country, airport_elevation_ft, airport_latitude, airport_longitude,
                    airport_time_zone, airport_local_id, city_name, city_latitude, city_longitude)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(name)] + Self.airportValues(airport) + Self.cityValues(city))
            let id = database.lastInsertRowID
            try database.run("UPDATE travel_state SET current_destination_id = ?", [.integer(id)])
            return Destination(id: id, name: name, airport: airport, city: city)
        }
    }

    /// Makes `name` the current destination.
    @discardableResult
    public func useDestination(named name: String) throws -> Destination {
        try writing {
            let destination = try resolve(name)
            try database.run("UPDATE travel_state SET current_destination_id = ?", [.integer(destination.id)])
            return destination
        }
    }

    @discardableResult
    public func renameDestination(_ oldName: String, to rawNewName: String) throws -> Destination {
        let newName = try Self.validatedName(rawNewName)
        return try writing {
            var destination = try resolve(oldName)
            if let other = try findDestination(named: newName), other.id != destination.id {
                throw TravelStoreError.destinationExists(other.name)
            }
            try database.run("UPDATE destinations SET name = ? WHERE id = ?", [.text(newName), .integer(destination.id)])
            destination.name = newName
            return destination
        }
    }

    /// Deletes a destination with its history. When it was current, the oldest remaining
    /// destination becomes current; that one is returned.
    @discardableResult
    public func deleteDestination(named name: String) throws -> (deleted: Destination, newCurrent: Destination?) {
        try writing {
            let destination = try resolve(name)
            let wasCurrent = try readCurrent()?.id == destination.id
            try database.run("DELETE FROM destinations WHERE id = ?", [.integer(destination.id)])
            guard wasCurrent else { return (destination, nil) }
            let successor = try readDestinations(where: "1", []).first
            try database.run(
                "UPDATE travel_state SET current_destination_id = ?",
                [successor.map { .integer($0.id) } ?? .null])
            return (destination, successor)
        }
    }

    /// Moves the City of `destinationName` (nil: current) to `coordinate`, renaming it to `newName`
    /// (nil keeps its name), and records the move. `insideTransaction` runs after the writes and
    /// before COMMIT (an error from it rolls the move back); tests use it to stop the process there.
    @discardableResult
    public func moveCity(
        of destinationName: String?, to coordinate: Coordinate, newName: String?,
        insideTransaction: () throws -> Void = {}
    ) throws -> CityMove {
        try writing {
            let destination = try resolve(destinationName)
            let target = DestinationCity(name: newName ?? destination.city.name, coordinate: coordinate)
            try database.run(
                """
                INSERT INTO city_moves (destination_id, from_name, from_latitude, from_longitude,
                    to_name, to_latitude, to_longitude) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.integer(destination.id)] + Self.cityValues(destination.city) + Self.cityValues(target))
            let moveID = database.lastInsertRowID
            try updateCity(of: destination, to: target)
            try insideTransaction()
            guard let move = try readMoves(of: destination, where: "id = ?", [.integer(moveID)]).first else {
                throw SQLiteError(code: SQLITE_INTERNAL, message: "the move just written is missing", path: path)
            }
            return move
        }
    }

    /// Puts the City back where it was before its latest move that still stands, and marks that
    /// move undone. Repeating steps further back.
    @discardableResult
    public func undoCityMove(of destinationName: String?) throws -> CityMove {
        try writing {
            let destination = try resolve(destinationName)
            guard var move = try readMoves(of: destination, where: "undone_at IS NULL ORDER BY id DESC LIMIT 1", []).last else {
                throw TravelStoreError.nothingToUndo(destination: destination.name)
            }
            try updateCity(of: destination, to: move.from)
            try database.run(
                "UPDATE city_moves SET undone_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                [.integer(move.id)])
            move.undoneAt = try database.query("SELECT undone_at FROM city_moves WHERE id = ?", [.integer(move.id)])
                .first?.first?.stringValue
            return move
        }
    }

    // MARK: Health

    /// `PRAGMA integrity_check`'s verdict: "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try translatingSQLiteErrors {
            try database.query("PRAGMA integrity_check").compactMap { $0.first?.stringValue }.joined(separator: "; ")
        }
    }

    public var journalMode: String {
        get throws { try translatingSQLiteErrors { try database.firstRow("PRAGMA journal_mode")?.first?.stringValue ?? "" } }
    }

    // MARK: Opening

    /// Refuses SQLite files that some other program (or the places importer) made.
    private func checkOwnership() throws {
        // One statement, so both come from the same snapshot: read apart, another process could create
        // the schema in between and make a fresh file look foreign.
        let row = try database.firstRow("SELECT (SELECT application_id FROM pragma_application_id), (SELECT count(*) FROM sqlite_master)")
        let applicationID = row?.first?.int64Value ?? 0
        let tableCount = row.flatMap { $0.count > 1 ? $0[1].int64Value : nil } ?? 0
        if applicationID != Int64(TravelStoreSchema.applicationID) && (applicationID != 0 || tableCount > 0) {
            throw TravelStoreError.notAStateFile(path: path)
        }
    }

    private func migrate() throws {
        let found = try schemaVersion()
        let latest = TravelStoreSchema.latestVersion
        if found > latest { throw TravelStoreError.newerSchema(path: path, found: found, supported: latest) }
        guard found < latest else { return }
        try database.transaction {
            // Another process may have migrated while we waited for the write lock.
            let current = try schemaVersion()
            guard current < latest else { return }
            for step in current..<latest { try database.execute(TravelStoreSchema.migrations[step]) }
            try database.execute("PRAGMA application_id = \(TravelStoreSchema.applicationID)")
            try database.execute("PRAGMA user_version = \(latest)")
            if current == 0 { try seedBookLondon() }
        }
    }

    private func schemaVersion() throws -> Int {
        Int(try database.firstRow("PRAGMA user_version")?.first?.int64Value ?? 0)
    }

    /// The first use of a state file starts with the book's trip, as the app did.
    private func seedBookLondon() throws {
        try database.run(
            """
            INSERT INTO destinations (name, airport_icao, airport_iata, airport_name, airport_city,
                airport_subdivision, airport_country, airport_elevation_ft, airport_latitude, airport_longitude,
                airport_time_zone, airport_local_id, city_name, city_latitude, city_longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(BookLondon.destinationName)] + Self.airportValues(BookLondon.airport) + Self.cityValues(BookLondon.city))
        try database.run("UPDATE travel_state SET current_destination_id = ?", [.integer(database.lastInsertRowID)])
    }

    // MARK: Rows

    private static let destinationColumns = """
        id, name, airport_icao, airport_iata, airport_name, airport_city, airport_subdivision, airport_country,
        airport_elevation_ft, airport_latitude, airport_longitude, airport_time_zone, airport_local_id,
        city_name, city_latitude, city_longitude
        """

    private func readDestinations(where condition: String, _ values: [SQLValue]) throws -> [Destination] {
        let statement = try database.prepare("SELECT \(Self.destinationColumns) FROM destinations WHERE \(condition) ORDER BY id")
        try statement.bind(values)
        var destinations: [Destination] = []
        while try statement.step() {
            func text(_ column: Int32) -> String { statement.string(column) ?? "" }
            func optionalText(_ column: Int32) -> String? { statement.isNull(column) ? nil : statement.string(column) }
            let airport = Airport(
                icao: text(2), iata: optionalText(3), name: text(4), city: text(5), subdivision: text(6),
                countryCode: text(7), elevationFeet: statement.isNull(8) ? nil : statement.double(8),
                coordinate: Coordinate(latitude: statement.double(9), longitude: statement.double(10)),
                timeZone: text(11), localIdentifier: optionalText(12))
            let city = DestinationCity(
                name: text(13),
                coordinate: Coordinate(latitude: statement.double(14), longitude: statement.double(15)))
            destinations.append(Destination(id: statement.int64(0), name: text(1), airport: airport, city: city))
        }
        return destinations
    }

    private func findDestination(named name: String) throws -> Destination? {
        try readDestinations(where: "name = ? COLLATE NOCASE", [.text(name.trimmingCharacters(in: .whitespaces))]).first
    }

    private func readCurrent() throws -> Destination? {
        try readDestinations(where: "id = (SELECT current_destination_id FROM travel_state)", []).first
    }

    /// A named destination, or the current one; errors say what exists instead.
    func resolve(_ name: String?) throws -> Destination {
        if let name {
            if let destination = try findDestination(named: name) { return destination }
            let names = try readDestinations(where: "1", []).map(\.name)
            throw TravelStoreError.unknownDestination(name, suggestions: Self.closeNames(to: name, among: names))
        }
        if let current = try readCurrent() { return current }
        let names = try readDestinations(where: "1", []).map(\.name)
        throw names.isEmpty ? TravelStoreError.noDestinations : TravelStoreError.noCurrentDestination(known: names)
    }

    private func readMoves(of destination: Destination, where condition: String = "1", _ values: [SQLValue] = []) throws -> [CityMove] {
        let statement = try database.prepare(
            """
            SELECT id, moved_at, from_name, from_latitude, from_longitude, to_name, to_latitude, to_longitude, undone_at
            FROM city_moves WHERE destination_id = ? AND \(condition)
            """)
        try statement.bind([.integer(destination.id)] + values)
        var moves: [CityMove] = []
        while try statement.step() {
            moves.append(
                CityMove(
                    id: statement.int64(0), destinationName: destination.name, movedAt: statement.string(1) ?? "",
                    from: DestinationCity(
                        name: statement.string(2) ?? "",
                        coordinate: Coordinate(latitude: statement.double(3), longitude: statement.double(4))),
                    to: DestinationCity(
                        name: statement.string(5) ?? "",
                        coordinate: Coordinate(latitude: statement.double(6), longitude: statement.double(7))),
                    undoneAt: statement.isNull(8) ? nil : statement.string(8)))
        }
        return moves.sorted { $0.id < $1.id }
    }

    private func updateCity(of destination: Destination, to city: DestinationCity) throws {
        try database.run(
            "UPDATE destinations SET city_name = ?, city_latitude = ?, city_longitude = ? WHERE id = ?",
            Self.cityValues(city) + [.integer(destination.id)])
    }

    private static func airportValues(_ airport: Airport) -> [SQLValue] {
        [
            .text(airport.icao), airport.iata.map(SQLValue.text) ?? .null, .text(airport.name), .text(airport.city),
            .text(airport.subdivision), .text(airport.countryCode), airport.elevationFeet.map(SQLValue.real) ?? .null,
            .real(airport.coordinate.latitude), .real(airport.coordinate.longitude), .text(airport.timeZone),
            airport.localIdentifier.map(SQLValue.text) ?? .null,
        ]
    }

    private static func cityValues(_ city: DestinationCity) -> [SQLValue] {
        [.text(city.name), .real(city.coordinate.latitude), .real(city.coordinate.longitude)]
    }

    // MARK: Rules

    /// The name trimmed, or an error saying what is wrong with it.
    public static func validatedName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw TravelStoreError.invalidDestinationName("it is empty") }
        guard name.count <= 100 else { throw TravelStoreError.invalidDestinationName("it is longer than 100 characters") }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw TravelStoreError.invalidDestinationName("it contains control characters")
        }
        return name
    }

    /// Names within two edits of `name`, ignoring case, closest first.
    static func closeNames(to name: String, among names: [String]) -> [String] {
        let wanted = name.lowercased()
        // The closures' types are spelled out: inferred, this chain took the Guide's longest type-check.
        let allowed: Int = max(1, min(2, wanted.count / 3))
        let scored: [(name: String, edits: Int)] = names.map { (name: String) -> (name: String, edits: Int) in
            (name, EditDistance.levenshtein(wanted, name.lowercased()))
        }
        return scored.filter { $0.edits <= allowed }.sorted { $0.edits < $1.edits }.map { $0.name }
    }

    // MARK: Transactions and errors

    /// One write transaction, with SQLite's errors turned into messages about the state file.
    func writing<T>(_ body: () throws -> T) throws -> T {
        try translatingSQLiteErrors { try database.transaction(body) }
    }

    func translatingSQLiteErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            switch error.code & 0xff {
            case SQLITE_BUSY, SQLITE_LOCKED:
                throw TravelStoreError.locked(path: path, waitedMilliseconds: busyTimeoutMilliseconds)
            case SQLITE_NOTADB:
                throw TravelStoreError.notADatabase(path: path)
            case SQLITE_CORRUPT:
                throw TravelStoreError.corrupt(path: path, detail: error.message)
            case SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM, SQLITE_IOERR:
                throw TravelStoreError.cannotOpen(path: path, detail: error.message)
            default:
                throw error
            }
        }
    }
}

private extension SQLiteDatabase {
    /// The first row of a query, or nil.
    func firstRow(_ sql: String) throws -> [SQLValue]? {
        try query(sql, []).first
    }
}
