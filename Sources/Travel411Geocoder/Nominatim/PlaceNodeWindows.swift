import Travel411Core
import Travel411Store

/// The 0.1° cells a window of place nodes holds: a 1° tile and the ring of cells around it, so that a search from
/// any point of the tile, which reads the point's cell and the eight around it (`NearbyCells`), finds in the window
/// every node it would find among all of them, in the same order.
struct PlaceNodeCellWindow: Sendable, Equatable {
    let columns: ClosedRange<Int>
    let rows: ClosedRange<Int>

    /// The window of 1° tile `column`, `row` (the tile's south-west corner in whole degrees).
    init(tileColumn column: Int, row: Int) {
        let cellsPerTile = NearbyCells.cellsPerDegree
        columns = (column * cellsPerTile - 1)...(column * cellsPerTile + cellsPerTile)
        rows = (row * cellsPerTile - 1)...(row * cellsPerTile + cellsPerTile)
    }

    /// Whether the node at (x, y) lies in one of the window's cells.
    func holds(x: Double, y: Double) -> Bool {
        columns.contains(NearbyCells.cellIndex(x)) && rows.contains(NearbyCells.cellIndex(y))
    }

    /// The window's extent, a little wider than its cells: an R-tree holds its points' boxes in floats.
    var searchBox: BoundingBox {
        let cell = NearbyCells.cellDegrees, slack = 1e-4
        return BoundingBox(
            minX: Double(columns.lowerBound) * cell - slack, minY: Double(rows.lowerBound) * cell - slack,
            maxX: Double(columns.upperBound + 1) * cell + slack, maxY: Double(rows.upperBound + 1) * cell + slack)
    }
}

/// A window's nodes, read from the extracts' place layers (`ExtractPlaceLayers`).
protocol PlaceNodeWindow: AnyObject, Sendable {
    associatedtype Node
    var nodes: [Node] { get }
    static func load(_ source: ExtractPlaceLayers, window: PlaceNodeCellWindow) throws -> Self
}

/// Place nodes read from the extracts' place layers a 1° tile at a time (`PlaceNodeCellWindow`), as lookups touch
/// them: reading every node at a lookup's first need made one `where` at zoom 14 on 2,400 copies of Liechtenstein
/// 3.4 times as slow as on 150. A node is named by its tile and its position in the tile's window
/// (`index(tile:position:)`), which stays valid for the process: each window is read once and kept.
/// The tiles are numbered as the suburb and town nodes' pages number theirs (`PlaceNodePages.tileNumber`).
final class PlaceNodeWindows<Window: PlaceNodeWindow>: Sendable {
    private static var tileColumns: Int { 361 }
    private let slots = LazySlots<Window>(count: PlaceNodePages.tileCount)
    private let source: ExtractPlaceLayers

    init(source: ExtractPlaceLayers) { self.source = source }

    /// Whether the database has no extract's place layer, so no node anywhere.
    var isEmpty: Bool { source.layers.isEmpty }

    /// The window of the tile holding (x, y) and the tile's number; nil outside the world or for an unreadable window.
    func window(x: Double, y: Double) -> (tile: Int, window: Window)? {
        guard (-180...180).contains(x), (-90...90).contains(y),
            let tile = PlaceNodePages.tileNumber(column: NearbyCells.cellIndex(x), row: NearbyCells.cellIndex(y))?.number
        else { return nil }
        return window(tile: tile).map { (tile, $0) }
    }

    /// The window of a node's index and its position there; nil for -1 or an index of no window.
    func window(ofIndex index: Int64) -> (window: Window, position: Int)? {
        guard index >= 0 else { return nil }
        return window(tile: Int(index >> 32)).map { ($0, Int(index & 0xFFFF_FFFF)) }
    }

    /// The node an index names; nil for -1 or an unknown index.
    func node(_ index: Int64) -> Window.Node? {
        guard let (window, position) = window(ofIndex: index), position < window.nodes.count else { return nil }
        return window.nodes[position]
    }

    /// A node's index: its tile and its position in the tile's window.
    static func index(tile: Int, position: Int32) -> Int64 { Int64(tile) << 32 | Int64(position) }

    /// The tile's window, read the first time it is asked for; nil for one that cannot be read (the damage is noted),
    /// which is asked again next time.
    private func window(tile: Int) -> Window? {
        let columns = Self.tileColumns, source = source
        return slots.withValue(
            at: tile,
            orMake: {
                do {
                    return try Window.load(source, window: PlaceNodeCellWindow(tileColumn: tile % columns - 180, row: tile / columns - 90))
                } catch {
                    source.reader.noteDamage(IndexFormatError.damage(in: error))
                    return nil
                }
            }, { $0 })
    }
}
