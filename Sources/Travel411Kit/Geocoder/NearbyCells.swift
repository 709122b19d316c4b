/// The indices of a list of points by 0.1° cell, for searches that reach less than a cell from their point
/// (place nodes: 0.08° at most): the point's cell and the eight around it hold every candidate.
struct NearbyCells: Sendable {
    private static let cellDegrees = 0.1
    private let cells: [Int64: [Int32]]

    init(_ points: [(x: Double, y: Double)]) {
        var cells: [Int64: [Int32]] = [:]
        for (i, point) in points.enumerated() {
            cells[Self.cell(column: Self.index(point.x), row: Self.index(point.y)), default: []].append(Int32(i))
        }
        self.cells = cells
    }

    /// Every index within a cell of (x, y), in the order the points were given within each cell.
    func forEach(near x: Double, _ y: Double, _ body: (Int32) -> Void) {
        let column = Self.index(x), row = Self.index(y)
        for r in (row - 1)...(row + 1) {
            for c in (column - 1)...(column + 1) {
                for index in cells[Self.cell(column: c, row: r)] ?? [] { body(index) }
            }
        }
    }

    private static func index(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }
    private static func cell(column: Int, row: Int) -> Int64 { Int64(row) << 32 | Int64(column) & 0xFFFF_FFFF }
}
