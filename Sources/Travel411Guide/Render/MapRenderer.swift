import Foundation
import Travel411Core

/// An output of `MapRenderer`.
public enum MapOutputFormat: String, Sendable, CaseIterable {
    case svg, png, pdf, terminal

    /// The format a file name asks for by its extension (any letter case); nil for any other.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "svg": self = .svg
        case "png": self = .png
        case "pdf": self = .pdf
        default: return nil
        }
    }
}

/// Why a map could not be drawn or written.
public struct MapRenderError: Travel411Error {
    public let description: String
    public let exitStatus: ExitStatus

    public init(_ description: String, exitStatus: ExitStatus = .failure) {
        self.description = description
        self.exitStatus = exitStatus
    }
}

/// One scene, one layout, one drawing path, a backend per output. Other commands (earthquakes,
/// tracks) build a `MapScene` of their own and render it here.
public enum MapRenderer {
    /// Outputs larger than this on a side are refused: a 10,000-pixel PNG is 400 MB of raster.
    public static let maximumPixels = 8192
    public static let minimumPixels = 64
    public static let maximumColumns = 1000
    public static let minimumColumns = 20

    /// The layout for `width`×`height` pixels; `basemap` reads the background for the final view.
    public static func layout(_ scene: MapScene, width: Int, height: Int, basemap: BasemapLoader? = nil) throws -> MapLayout {
        try MapLayout(
            scene: scene, width: Double(width), height: Double(height),
            basemap: basemap.map { loader in { try loader.load(for: $0) } })
    }

    /// The terminal picture of `scene` in `columns`×`rows` cells: the map, and under it the credits as
    /// plain lines (set on the map, they would cover its frame and scale bar). Text is laid out a
    /// character per cell, so names that are apart on the layout are apart on the screen.
    public static func terminal(
        _ scene: MapScene, columns: Int, rows: Int, colour: TerminalColour,
        basemap: BasemapLoader? = nil
    ) throws -> (layout: MapLayout, text: String) {
        var creditRows = 1
        while true {
            let mapRows = max(3, rows - creditRows)
            let layout = try MapLayout(
                scene: scene, width: Double(columns) * TerminalMap.cellWidth, height: Double(mapRows) * TerminalMap.cellHeight,
                measure: TextMeasure(cellWidth: TerminalMap.cellWidth), drawsCredits: false,
                basemap: basemap.map { loader in { try loader.load(for: $0) } })
            let credits = TerminalMap.creditLines(layout.creditLines, columns: columns)
            // The credits' own lines are known only once the basemap for the view is read: one more round at most.
            if credits.count <= creditRows || mapRows == 3 {
                let text = TerminalMap.render(layout, columns: columns, rows: mapRows, colour: colour)
                return (layout, text + credits.prefix(rows - mapRows).map { $0 + "\n" }.joined())
            }
            creditRows = credits.count
        }
    }

    public static func svg(_ layout: MapLayout) -> String {
        let canvas = SVGCanvas(width: layout.viewport.width, height: layout.viewport.height)
        canvas.draw(layout.items)
        return canvas.document
    }

    /// Writes the layout as SVG, PNG or PDF to `url`, through a temporary file renamed into place,
    /// so a failure leaves nothing half-written.
    public static func write(_ layout: MapLayout, as format: MapOutputFormat, to url: URL) throws {
        do {
            try AtomicFileReplacement.replace(url) { temporary in
                switch format {
                case .svg:
                    try Data(svg(layout).utf8).write(to: temporary)
                case .png:
                    let canvas = CairoCanvas(rasterWidth: Int(layout.viewport.width), height: Int(layout.viewport.height))
                    canvas.draw(layout.items)
                    if let failure = canvas.failure ?? canvas.writePNG(to: temporary.path) {
                        throw MapRenderError("cannot draw the PNG \(DisplayText.sanitized(url.path)): \(failure)")
                    }
                case .pdf:
                    let canvas = CairoCanvas(pdfPath: temporary.path, width: layout.viewport.width, height: layout.viewport.height)
                    canvas.draw(layout.items)
                    canvas.finish()
                    if let failure = canvas.failure {
                        throw MapRenderError("cannot draw the PDF \(DisplayText.sanitized(url.path)): \(failure)")
                    }
                case .terminal:
                    throw MapRenderError("the terminal map is not written to a file")
                }
            }
        } catch let error as AtomicFileReplacementError {
            throw MapRenderError("cannot write the map to \(DisplayText.sanitized(url.path)): \(error.message)")
        }
    }
}
