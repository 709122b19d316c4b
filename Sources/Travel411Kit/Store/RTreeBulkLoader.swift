import Foundation

/// Fills an empty SQLite R-tree virtual table with many entries at once.
///
/// Inserting entries one by one makes SQLite split and rewrite nodes constantly: 400 k points took 3.4 s.
/// Instead we pack the tree ourselves (Sort-Tile-Recursive: full nodes of spatially close boxes) and write
/// SQLite's three shadow tables directly, in the format its R-tree module documents in rtree.c:
///
/// - `<t>_node(nodeno, data)`: node 1 is the root. `data` is a fixed-size blob: a big-endian 16-bit tree
///   depth (root only; leaves are depth 0), a big-endian 16-bit cell count, then cells of a big-endian
///   64-bit id (entry rowid in leaves, child node number above) and big-endian 32-bit float coordinates
///   minx, maxx, miny, maxy.
/// - `<t>_parent(nodeno, parentnode)` for every node but the root.
/// - `<t>_rowid(rowid, nodeno)`: the leaf holding each entry.
///
/// If SQLite refuses writes to shadow tables (SQLITE_DBCONFIG_DEFENSIVE), it falls back to plain inserts.
enum RTreeBulkLoader {
    /// Four Float coordinates: minx, maxx, miny, maxy.
    private typealias Box = (Float, Float, Float, Float)
    /// What one level of the tree is built from: at the bottom the index of an entry, above a node number.
    private typealias Item = (key: Int64, box: Box)

    private static let cellSize = 8 + 4 * 4
    private static let savepoint = "travel411_rtree_bulk_load"

    static func load(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        guard entries.count > 0 else { return }
        try database.execute("SAVEPOINT \(savepoint)")
        do {
            try writePackedTree(entries, into: rtreeTable, database: database)
            try database.execute("RELEASE \(savepoint)")
        } catch is SQLiteError {
            try database.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
            try insertOneByOne(entries, into: rtreeTable, database: database)
        }
    }

    private static func insertOneByOne(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        let insert = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable)) (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)")
        let coordinates = entries.coordinates
        for (index, id) in entries.ids.enumerated() {
            try insert.bind(.integer(id), at: 1)
            for axis in 0..<4 { try insert.bind(.real(Double(coordinates[index * 4 + axis])), at: Int32(axis + 2)) }
            try insert.step()
            insert.reset()
        }
    }

    private static func writePackedTree(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        // SQLite sized the root node when it created the table; every node must have that size.
        let nodeSize =
            try database.query(
                "SELECT length(data) FROM \(GeoPackageSchema.quoted(rtreeTable + "_node")) WHERE nodeno = 1"
            ).first?.first?.int64Value.map(Int.init) ?? 0
        let capacity = (nodeSize - 4) / cellSize
        guard capacity >= 2, capacity <= Int(UInt16.max) else {
            throw SQLiteError(code: 1, message: "unexpected R-tree node size \(nodeSize)", path: database.path)
        }

        let coordinates = entries.coordinates
        var level: [Item] = []
        level.reserveCapacity(entries.count)
        for index in 0..<entries.count {
            let base = index * 4
            let box: Box = (coordinates[base], coordinates[base + 1], coordinates[base + 2], coordinates[base + 3])
            level.append((Int64(index), box))
        }
        var leafOfEntry = [Int64](repeating: 1, count: entries.count)
        var parentOfNode = [Int64](repeating: 1, count: 2)  // indexed by node number; the root has none
        var nextNodeNumber: Int64 = 2  // 1 is the root
        var depth = 0

        let insertNode = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_node")) (nodeno, data) VALUES (?, ?)")
        var blob = [UInt8](repeating: 0, count: nodeSize)

        // Pack level after level until what is left fits in the root.
        while level.count > capacity {
            var parents: [Item] = []
            parents.reserveCapacity(level.count / capacity + 1)
            for group in sortTileRecursive(level, capacity: capacity) {
                let nodeNumber = nextNodeNumber
                nextNodeNumber += 1
                encodeNode(group, depth: 0, entryIDs: depth == 0 ? entries.ids : nil, into: &blob)
                try insertNode.run([.integer(nodeNumber), .blob(blob)])
                parentOfNode.append(1)
                for item in group {
                    if depth == 0 { leafOfEntry[Int(item.key)] = nodeNumber } else { parentOfNode[Int(item.key)] = nodeNumber }
                }
                parents.append((nodeNumber, union(group)))
            }
            level = parents
            depth += 1
        }
        // What is left goes into the root, whose children keep the parent 1 and leaf 1 set above.
        encodeNode(level[...], depth: depth, entryIDs: depth == 0 ? entries.ids : nil, into: &blob)
        try database.run(
            "UPDATE \(GeoPackageSchema.quoted(rtreeTable + "_node")) SET data = ? WHERE nodeno = 1", [.blob(blob)])

        // Node numbers ascend, and so do fids as the writer assigns them: both tables fill by appending.
        let insertParent = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_parent")) (nodeno, parentnode) VALUES (?, ?)")
        for node in parentOfNode.indices.dropFirst(2) {
            try insertParent.run([.integer(Int64(node)), .integer(parentOfNode[node])])
        }
        let insertRowID = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_rowid")) (rowid, nodeno) VALUES (?, ?)")
        for (index, id) in entries.ids.enumerated() {
            try insertRowID.run([.integer(id), .integer(leafOfEntry[index])])
        }
    }

    /// Groups of at most `capacity` items, close in space: sort by x into vertical slices, each slice by y.
    private static func sortTileRecursive(_ items: [Item], capacity: Int) -> [ArraySlice<Item>] {
        let nodeCount = (items.count + capacity - 1) / capacity
        let sliceCount = Int(Double(nodeCount).squareRoot().rounded(.up))
        let sliceLength = sliceCount * capacity
        let byX = items.sorted { $0.box.0 + $0.box.1 < $1.box.0 + $1.box.1 }
        var groups: [ArraySlice<Item>] = []
        groups.reserveCapacity(nodeCount)
        for sliceStart in stride(from: 0, to: byX.count, by: sliceLength) {
            let slice = byX[sliceStart..<min(sliceStart + sliceLength, byX.count)]
                .sorted { $0.box.2 + $0.box.3 < $1.box.2 + $1.box.3 }
            for groupStart in stride(from: 0, to: slice.count, by: capacity) {
                groups.append(slice[groupStart..<min(groupStart + capacity, slice.count)])
            }
        }
        return groups
    }

    private static func union(_ items: ArraySlice<Item>) -> Box {
        var box: Box = (.infinity, -.infinity, .infinity, -.infinity)
        for item in items {
            box.0 = min(box.0, item.box.0)
            box.1 = max(box.1, item.box.1)
            box.2 = min(box.2, item.box.2)
            box.3 = max(box.3, item.box.3)
        }
        return box
    }

    /// Leaf cells hold the entry's id, looked up in `entryIDs`; inner cells hold the child's node number.
    private static func encodeNode(_ items: ArraySlice<Item>, depth: Int, entryIDs: [Int64]?, into blob: inout [UInt8]) {
        for index in blob.indices { blob[index] = 0 }
        blob.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt16(depth).bigEndian, toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: UInt16(items.count).bigEndian, toByteOffset: 2, as: UInt16.self)
            var offset = 4
            for item in items {
                let id = entryIDs.map { $0[Int(item.key)] } ?? item.key
                raw.storeBytes(of: UInt64(bitPattern: id).bigEndian, toByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: item.box.0.bitPattern.bigEndian, toByteOffset: offset + 8, as: UInt32.self)
                raw.storeBytes(of: item.box.1.bitPattern.bigEndian, toByteOffset: offset + 12, as: UInt32.self)
                raw.storeBytes(of: item.box.2.bitPattern.bigEndian, toByteOffset: offset + 16, as: UInt32.self)
                raw.storeBytes(of: item.box.3.bitPattern.bigEndian, toByteOffset: offset + 20, as: UInt32.self)
                offset += cellSize
            }
        }
    }
}
