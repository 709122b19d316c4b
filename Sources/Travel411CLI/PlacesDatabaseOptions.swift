import ArgumentParser

/// Options shared by every command that reads the places database.
package struct PlacesDatabaseOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp("The places database (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).", valueName: "file"))
    package var databasePath: String?
}
