/// The state file's schema, as an append-only list of migrations. `PRAGMA user_version` counts how
/// many have run; never edit a shipped step, add a new one.
enum TravelStoreSchema {
    /// "T411" in ASCII: marks a SQLite file as a travel411 state file, so that we never write into
    /// the places database or any other file by mistake.
    static let applicationID: Int32 = 0x5434_3131

    static let migrations: [String] = [
        // 1: destinations with their airport snapshot and city, the move history, the current trip.
        """
        CREATE TABLE destinations (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(trim(name)) > 0),
            airport_icao TEXT NOT NULL,
            airport_iata TEXT,
            airport_name TEXT NOT NULL,
            airport_city TEXT NOT NULL,
            airport_subdivision TEXT NOT NULL,
            airport_country TEXT NOT NULL,
            airport_elevation_ft REAL,
            airport_latitude REAL NOT NULL CHECK (airport_latitude BETWEEN -90 AND 90),
            airport_longitude REAL NOT NULL CHECK (airport_longitude BETWEEN -180 AND 180),
            airport_time_zone TEXT NOT NULL,
            airport_local_id TEXT,
            city_name TEXT NOT NULL,
            city_latitude REAL NOT NULL CHECK (city_latitude BETWEEN -90 AND 90),
            city_longitude REAL NOT NULL CHECK (city_longitude BETWEEN -180 AND 180),
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
        );
        CREATE TABLE city_moves (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            destination_id INTEGER NOT NULL REFERENCES destinations(id) ON DELETE CASCADE,
            moved_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            from_name TEXT NOT NULL,
            from_latitude REAL NOT NULL,
            from_longitude REAL NOT NULL,
            to_name TEXT NOT NULL,
            to_latitude REAL NOT NULL,
            to_longitude REAL NOT NULL,
            undone_at TEXT
        );
        CREATE INDEX city_moves_by_destination ON city_moves (destination_id, id);
        CREATE TABLE travel_state (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            current_destination_id INTEGER REFERENCES destinations(id) ON DELETE SET NULL
        );
        INSERT INTO travel_state (singleton) VALUES (1);
        """,
        // 2: circular regions monitored for enter and exit, per destination (`travel411 regions`).
        """
        CREATE TABLE monitored_regions (
            id INTEGER PRIMARY KEY,
            destination_id INTEGER NOT NULL REFERENCES destinations(id) ON DELETE CASCADE,
            name TEXT NOT NULL COLLATE NOCASE CHECK (length(trim(name)) > 0),
            latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            radius_metres REAL NOT NULL CHECK (radius_metres > 0),
            message TEXT,
            created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
            UNIQUE (destination_id, name)
        );
        """,
    ]

    static var latestVersion: Int { migrations.count }
}
