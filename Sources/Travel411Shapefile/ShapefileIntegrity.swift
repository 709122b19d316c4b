import Travel411Core

/// The 100-byte header that .shp and .shx files share.
struct ShapefileMainHeader {
    static let size = 100
    static let fileCode: Int32 = 9994

    /// The file length the header declares, in bytes.
    let declaredLength: Int
    let shapeType: Int32
    let boundingBox: BoundingBox

    /// - Parameter role: what the file should be, for messages ("a shapefile", "a shapefile index (.shx)").
    init(of file: MappedFile, role: String) throws {
        guard file.count >= Self.size else {
            throw ShapefileError.at(file.path, "is not \(role): it has \(file.count) bytes, fewer than the \(Self.size)-byte header")
        }
        let code = file.bigEndianInt32(at: 0)
        guard code == Self.fileCode else {
            throw ShapefileError.at(file.path, "is not \(role): it starts with file code \(code), not \(Self.fileCode)")
        }
        declaredLength = Int(file.bigEndianInt32(at: 24)) * 2
        guard declaredLength >= Self.size else {
            throw ShapefileError.at(file.path, "is not \(role): its header gives an impossible length of \(declaredLength) bytes")
        }
        shapeType = file.littleEndianInt32(at: 32)
        boundingBox = BoundingBox(
            minX: file.littleEndianDouble(at: 36), minY: file.littleEndianDouble(at: 44),
            maxX: file.littleEndianDouble(at: 52), maxY: file.littleEndianDouble(at: 60))
    }
}

/// Checks the .shx record table against the .shp before any record is read, so that a truncated or corrupt
/// shapefile fails when it is opened, naming the record, rather than halfway through an import.
enum ShapeRecordTableCheck {
    private static let entrySize = 8
    private static let recordHeaderSize = 8

    /// Returns the number of records; appends notes about harmless oddities to `warnings`.
    static func verify(
        shp: MappedFile, shpHeader: ShapefileMainHeader, shx: MappedFile,
        shxHeader: ShapefileMainHeader, warnings: inout [String]
    ) throws -> Int {
        let tableBytes = shxHeader.declaredLength - ShapefileMainHeader.size
        let recordCount = tableBytes / entrySize
        let recordsPresent = (shx.count - ShapefileMainHeader.size) / entrySize
        guard recordCount <= recordsPresent else {
            throw ShapefileError.at(
                shx.path, "is truncated: its header lists \(recordCount) records but the file holds only \(recordsPresent)")
        }
        if tableBytes % entrySize != 0 {
            warnings.append(
                "\(shx.path): its header gives a length that is not a whole number of records; the last \(tableBytes % entrySize) bytes are ignored"
            )
        }

        for index in 0..<recordCount {
            let entryOffset = ShapefileMainHeader.size + index * entrySize
            // Pages read stay resident until let go: the walk would otherwise hold the whole .shp (364 MB
            // for 2 million roads) at the import's peak. Records normally lie in file order; one that does
            // not only reads its page back from the file.
            if index % 65_536 == 65_535 {
                shp.release(before: Int(shx.bigEndianInt32(at: entryOffset)) * 2)
                shx.release(before: entryOffset)
            }
            try verifyRecord(number: index + 1, entryOffset: entryOffset, shp: shp, shx: shx)
        }

        let extraBytes = shp.count - shpHeader.declaredLength
        if extraBytes > 0 {
            warnings.append("\(shp.path) is \(byteCount(extraBytes)) longer than its header says; the extra bytes are ignored")
        } else if extraBytes < 0 {
            warnings.append("\(shp.path) is \(byteCount(-extraBytes)) shorter than its header says, but every record is complete")
        }
        return recordCount
    }

    private static func verifyRecord(number: Int, entryOffset: Int, shp: MappedFile, shx: MappedFile) throws {
        let offset = Int(shx.bigEndianInt32(at: entryOffset)) * 2
        let contentLength = Int(shx.bigEndianInt32(at: entryOffset + 4)) * 2
        guard offset >= ShapefileMainHeader.size else {
            throw ShapefileError.at(
                shx.path, record: number,
                "points at byte \(offset) of \(shp.path), inside its \(ShapefileMainHeader.size)-byte header: the .shx is corrupt")
        }
        guard contentLength >= 4 else {
            throw ShapefileError.at(
                shx.path, record: number,
                "gives a record length of \(contentLength) bytes, too short to hold a shape: the .shx is corrupt")
        }
        let end = offset + recordHeaderSize + contentLength
        guard end <= shp.count else {
            throw ShapefileError.at(
                shx.path, record: number,
                "points at bytes \(offset)–\(end) of \(shp.path), which ends at byte \(shp.count): the .shp is truncated or the .shx is corrupt"
            )
        }
        let lengthInShp = Int(shp.bigEndianInt32(at: offset + 4)) * 2
        guard lengthInShp == contentLength else {
            throw ShapefileError.at(
                shp.path, record: number,
                "is \(lengthInShp) bytes long at byte \(offset), but \(shx.path) says \(contentLength): the .shx does not match the .shp")
        }
        let shapeType = shp.littleEndianInt32(at: offset + recordHeaderSize)
        guard ShapeTypeCode.isDefined(shapeType) else {
            throw ShapefileError.at(
                shp.path, record: number,
                "has unknown shape type \(shapeType) at byte \(offset + recordHeaderSize): the file is corrupt")
        }
    }
}
