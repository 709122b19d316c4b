/// What reads OpenStreetMap extracts into features: `OSMExtractReader` (Travel411OSMReader, over libosmium).
/// The import takes one in its options (`ImportOptions.extractReader`) rather than depending on the reader,
/// so that what only imports shapefiles (the first `travel411 where …` importing Data/) compiles no libosmium.
public protocol OSMExtractReading: Sendable {
    /// Reads the files as one, calling `body` for every feature in the files' order (`OSMExtractReader.read`);
    /// `nodesFile`: a new file for the node locations (`OSMExtractReader.nodesFile`), nil for a temporary one.
    func read(
        paths: [String], nodesFile: String?, progress: ((OSMReadProgress) -> Void)?, _ body: (OSMFeature) throws -> Void
    ) throws -> OSMReadSummary
}
