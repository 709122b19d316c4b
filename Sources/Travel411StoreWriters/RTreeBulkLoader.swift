import Foundation
import Travel411Core
import Travel411Store

/// Fills an empty SQLite R-tree virtual table with many entries at once, in bounded memory.
///
/// Inserting entries one by one makes SQLite split and rewrite nodes constantly: 400 k points took 3.4 s.
/// Instead we pack the tree ourselves and write SQLite's three shadow tables directly, in the format its
/// R-tree module documents in rtree.c:
///
/// - `<t>_node(nodeno, data)`: node 1 is the root. `data` is a fixed-size blob: a big-endian 16-bit tree
///   depth (root only; leaves are depth 0), a big-endian 16-bit cell count, then cells of a big-endian
///   64-bit id (entry rowid in leaves, child node number above) and big-endian 32-bit float coordinates
///   minx, maxx, miny, maxy.
/// - `<t>_parent(nodeno, parentnode)` for every node but the root.
/// - `<t>_rowid(rowid, nodeno)`: the leaf holding each entry.
///
/// The entries arrive sorted along a Hilbert curve through their boxes' centres (`RTreeEntries` sorts them
/// on disk), so full leaves of consecutive entries hold boxes close in space, and so do full nodes of
/// consecutive leaves: a packed Hilbert R-tree. Only the nodes above the leaves (one per ~50 entries) are
/// kept in memory.
///
/// If SQLite refuses writes to shadow tables (SQLITE_DBCONFIG_DEFENSIVE), it falls back to plain inserts.
enum RTreeBulkLoader {
    /// Four Float coordinates: minx, maxx, miny, maxy.
    typealias Box = (Float, Float, Float, Float)
    /// A node above the leaves, or a leaf's parent entry: its node number and box.
    private typealias Item = (key: Int64, box: Box)

    private static let cellSize = 8 + 4 * 4
    private static let savepoint = "travel411_rtree_bulk_load"

    static func load(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        guard entries.count > 0 else { return }
        if try acceptsShadowWrites(rtreeTable, database: database) {
            try writePackedTree(entries, into: rtreeTable, database: database)
        } else {
            try insertOneByOne(entries, into: rtreeTable, database: database)
        }
    }

    /// Whether SQLite lets us write the shadow tables, tried and undone.
    private static func acceptsShadowWrites(_ rtreeTable: String, database: SQLiteDatabase) throws -> Bool {
        try database.execute("SAVEPOINT \(savepoint)")
        defer { try? database.execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)") }
        do {
            try database.run(
                "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_parent")) (nodeno, parentnode) VALUES (?, ?)",
                [.integer(Int64.max), .integer(1)])
            return true
        } catch is SQLiteError {
            return false
        }
    }

    private static func insertOneByOne(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        let insert = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable)) (id, minx, maxx, miny, maxy) VALUES (?, ?, ?, ?, ?)")
        try entries.drain { entry in
            try insert.run([
                .integer(entry.id), .real(Double(entry.minX)), .real(Double(entry.maxX)), .real(Double(entry.minY)),
                .real(Double(entry.maxY)),
            ])
        }
    }

    /// The size of a node and how many cells it holds: SQLite sized the root node when it created the table, and
    /// every node must have that size.
    private static func nodeSize(of rtreeTable: String, database: SQLiteDatabase) throws -> (bytes: Int, capacity: Int) {
        let nodeSize =
            try database.query(
                "SELECT length(data) FROM \(GeoPackageSchema.quoted(rtreeTable + "_node")) WHERE nodeno = 1"
            ).first?.first?.int64Value.map(Int.init) ?? 0
        let capacity = (nodeSize - 4) / cellSize
        guard capacity >= 2, capacity <= Int(UInt16.max) else {
            throw SQLiteError(code: 1, message: "unexpected R-tree node size \(nodeSize)", path: database.path)
        }
        return (nodeSize, capacity)
    }

    private static func writePackedTree(_ entries: RTreeEntries, into rtreeTable: String, database: SQLiteDatabase) throws {
        let (nodeSize, capacity) = try nodeSize(of: rtreeTable, database: database)
        let insertNode = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_node")) (nodeno, data) VALUES (?, ?)")
        let insertRowID = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_rowid")) (rowid, nodeno) VALUES (?, ?)")
        var blob = [UInt8](repeating: 0, count: nodeSize)
        var parentOfNode = [Int64](repeating: 1, count: 2)  // indexed by node number; the root has none
        var nextNodeNumber: Int64 = 2  // 1 is the root

        // The leaves, straight from the sorted entries. With everything fitting in the root, the root is the leaf.
        var level: [Item] = []
        var group: [Item] = []
        group.reserveCapacity(capacity)
        let fitsInRoot = entries.count <= capacity
        // Each entry's leaf, sorted back into fid order on disk so that `_rowid` fills by appending.
        let leafOfEntry = ExternalSorter<(fid: Int64, node: Int64)>(
            runPrefix: database.path + "-rtree-leaf-run-", bufferBytes: 4 << 20
        ) { UInt64(bitPattern: $0.fid) }
        func emitLeaf() throws {
            let nodeNumber = nextNodeNumber
            nextNodeNumber += 1
            encodeNode(group[...], depth: 0, into: &blob)
            try insertNode.run([.integer(nodeNumber), .blob(blob)])
            parentOfNode.append(1)
            for item in group { try leafOfEntry.append((item.key, nodeNumber)) }
            level.append((nodeNumber, union(group[...])))
            group.removeAll(keepingCapacity: true)
        }
        try entries.drain { entry in
            group.append((entry.id, (entry.minX, entry.maxX, entry.minY, entry.maxY)))
            if !fitsInRoot, group.count == capacity { try emitLeaf() }
        }
        var depth = 0
        if fitsInRoot {
            level = group
        } else {
            if !group.isEmpty { try emitLeaf() }
            depth = 1
            // Pack consecutive nodes, level after level, until what is left fits in the root.
            while level.count > capacity {
                var parents: [Item] = []
                parents.reserveCapacity(level.count / capacity + 1)
                for start in stride(from: 0, to: level.count, by: capacity) {
                    let children = level[start..<min(start + capacity, level.count)]
                    let nodeNumber = nextNodeNumber
                    nextNodeNumber += 1
                    encodeNode(children, depth: 0, into: &blob)
                    try insertNode.run([.integer(nodeNumber), .blob(blob)])
                    parentOfNode.append(1)
                    for child in children { parentOfNode[Int(child.key)] = nodeNumber }
                    parents.append((nodeNumber, union(children)))
                }
                level = parents
                depth += 1
            }
        }
        // What is left goes into the root, whose children keep the parent 1 set above.
        encodeNode(level[...], depth: depth, into: &blob)
        try database.run(
            "UPDATE \(GeoPackageSchema.quoted(rtreeTable + "_node")) SET data = ? WHERE nodeno = 1", [.blob(blob)])

        try writeParents(parentOfNode, into: rtreeTable, database: database)
        if fitsInRoot {
            for item in level { try insertRowID.run([.integer(item.key), .integer(1)]) }
        } else {
            try leafOfEntry.drain { try insertRowID.run([.integer($0.fid), .integer($0.node)]) }
        }
    }

    /// The `_parent` table: every node's parent but the root's (node numbers from 2).
    private static func writeParents(_ parentOfNode: [Int64], into rtreeTable: String, database: SQLiteDatabase) throws {
        // Node numbers ascend, and so do fids as the writer assigns them: both tables fill by appending.
        let insertParent = try database.prepare(
            "INSERT INTO \(GeoPackageSchema.quoted(rtreeTable + "_parent")) (nodeno, parentnode) VALUES (?, ?)")
        for node in parentOfNode.indices.dropFirst(2) {
            try insertParent.run([.integer(Int64(node)), .integer(parentOfNode[node])])
        }
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

    /// A node's cells: entry ids in leaves, child node numbers above.
    private static func encodeNode(_ items: ArraySlice<Item>, depth: Int, into blob: inout [UInt8]) {
        for index in blob.indices { blob[index] = 0 }
        blob.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt16(depth).bigEndian, toByteOffset: 0, as: UInt16.self)
            raw.storeBytes(of: UInt16(items.count).bigEndian, toByteOffset: 2, as: UInt16.self)
            var offset = 4
            for item in items {
                raw.storeBytes(of: UInt64(bitPattern: item.key).bigEndian, toByteOffset: offset, as: UInt64.self)
                raw.storeBytes(of: item.box.0.bitPattern.bigEndian, toByteOffset: offset + 8, as: UInt32.self)
                raw.storeBytes(of: item.box.1.bitPattern.bigEndian, toByteOffset: offset + 12, as: UInt32.self)
                raw.storeBytes(of: item.box.2.bitPattern.bigEndian, toByteOffset: offset + 16, as: UInt32.self)
                raw.storeBytes(of: item.box.3.bitPattern.bigEndian, toByteOffset: offset + 20, as: UInt32.self)
                offset += cellSize
            }
        }
    }
}
