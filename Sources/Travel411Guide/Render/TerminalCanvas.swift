import Foundation
import Travel411Core
import Travel411Store

/// How many colours the terminal shows.
public enum TerminalColour: String, Sendable, CaseIterable {
    case trueColour = "truecolor"
    case palette256 = "256"
    /// `NO_COLOR`: lines as braille dots, markers and names as letters, and no escape codes at all.
    case none

    /// `--color`: `auto` colours only a terminal, as `ls` and `grep` do; `always` and `never` say so.
    public enum Choice: String, Sendable, CaseIterable { case auto, always, never }

    /// `never`, or `auto` when the output is not a terminal (a pipe, a file) or `NO_COLOR` is set (any
    /// value, https://no-color.org), give none; `always` colours even then, as a flag the user typed
    /// overrides the environment. The depth then follows `COLORTERM=truecolor|24bit`, else 256
    /// colours; a dumb terminal gets none unless `always`.
    public static func detect(environment: [String: String], isTerminal: Bool, choice: Choice = .auto) -> TerminalColour {
        switch choice {
        case .never: return .none
        case .always: return depth(environment) ?? .palette256
        case .auto:
            guard isTerminal else { return .none }
            if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return .none }
            return depth(environment) ?? .none
        }
    }

    /// The colours the terminal says it shows; nil for a dumb one.
    private static func depth(_ environment: [String: String]) -> TerminalColour? {
        if let colourTerm = environment["COLORTERM"]?.lowercased(), colourTerm == "truecolor" || colourTerm == "24bit" {
            return .trueColour
        }
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return nil }
        return .palette256
    }
}

/// The terminal picture: the same layout drawn by Cairo onto a small raster, then turned into cells:
/// upper-half blocks with a colour above and below in colour, braille dots (2×4 per cell) without.
/// Names and marker letters are set as real characters over it, since a raster a few pixels high
/// cannot carry text.
public enum TerminalMap {
    /// The layout pixels one cell stands for: a terminal cell is about twice as tall as wide.
    public static let cellWidth = 8.0, cellHeight = 16.0

    /// The credits under the map, right-aligned to its width, one credit never split unless it is wider.
    public static func creditLines(_ credits: [String], columns: Int) -> [String] {
        var lines: [String] = []
        for credit in MapLayout.credits(credits) {
            if let last = lines.last, last.count + 3 + credit.count <= columns {
                lines[lines.count - 1] = last + " · " + credit
            } else {
                var rest = Substring(credit)
                while rest.count > columns {
                    lines.append(String(rest.prefix(columns)))
                    rest = rest.dropFirst(columns)
                }
                lines.append(String(rest))
            }
        }
        return lines.map { String(repeating: " ", count: max(0, columns - $0.count)) + $0 }
    }

    public static func render(_ layout: MapLayout, columns: Int, rows: Int, colour: TerminalColour) -> String {
        var cells = colour == .none ? brailleCells(layout, columns: columns, rows: rows) : blockCells(layout, columns: columns, rows: rows)
        overlay(layout, on: &cells, columns: columns, rows: rows, colour: colour)
        var output = ""
        for row in cells {
            var line = ""
            var current: (UInt32?, UInt32?) = (nil, nil)
            for cell in row {
                if colour != .none, cell.foreground != current.0 || cell.background != current.1 {
                    line += escape(foreground: cell.foreground, background: cell.background, colour: colour, bold: cell.bold)
                    current = (cell.foreground, cell.background)
                }
                line.append(cell.character)
            }
            if colour != .none { line += "\u{1B}[0m" }
            output += line + "\n"
        }
        return output
    }

    struct Cell {
        var character: Character
        var foreground: UInt32?
        var background: UInt32?
        var bold = false
        var isText = false
    }

    private static func blockCells(_ layout: MapLayout, columns: Int, rows: Int) -> [[Cell]] {
        let canvas = CairoCanvas(rasterWidth: columns, height: rows * 2, scale: 1 / cellWidth)
        canvas.drawsText = false
        canvas.draw(layout.items)
        let raster = canvas.pixels()
        return (0..<rows).map { row in
            (0..<columns).map { column in
                let top = raster.rows[safe: row * 2]?[safe: column] ?? 0, bottom = raster.rows[safe: row * 2 + 1]?[safe: column] ?? 0
                return Cell(character: "▀", foreground: top, background: bottom)
            }
        }
    }

    private static func brailleCells(_ layout: MapLayout, columns: Int, rows: Int) -> [[Cell]] {
        let canvas = CairoCanvas(rasterWidth: columns * 2, height: rows * 4, scale: 2 / cellWidth)
        canvas.drawsText = false
        canvas.skippedRoles = [.background, .area]
        canvas.drawPath(
            [
                [
                    ScreenPoint(x: 0, y: 0), ScreenPoint(x: layout.viewport.width, y: 0),
                    ScreenPoint(x: layout.viewport.width, y: layout.viewport.height), ScreenPoint(x: 0, y: layout.viewport.height),
                ]
            ],
            closed: true, style: PathStyle(fill: .white), role: .decoration)
        // Ink only: every colour but white becomes black, panels stay white.
        canvas.draw(layout.items.map(monochrome))
        let raster = canvas.pixels()
        // Braille dot bits by (column, row) within the cell.
        let bits: [[UInt32]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
        return (0..<rows).map { row in
            (0..<columns).map { column in
                var pattern: UInt32 = 0
                for dy in 0..<4 {
                    for dx in 0..<2 {
                        let pixel = raster.rows[safe: row * 4 + dy]?[safe: column * 2 + dx] ?? 0xFFFFFF
                        if luminance(pixel) < 0.5 { pattern |= bits[dy][dx] }
                    }
                }
                let character = pattern == 0 ? " " : Character(UnicodeScalar(0x2800 + pattern) ?? " ")
                return Cell(character: character)
            }
        }
    }

    private static func monochrome(_ item: DrawItem) -> DrawItem {
        func ink(_ colour: MapColour?) -> MapColour? {
            guard let colour else { return nil }
            return luminance(colour) > 0.85 || colour.alpha < 0.3 ? .white : .black
        }
        switch item {
        case .path(let subpaths, let closed, var style, let role):
            // A marker is solid; a line is its stroke only.
            style.fill = role == .marker ? ink(style.fill) : (role == .decoration ? ink(style.fill) : nil)
            style.stroke = ink(style.stroke)
            // At least one braille dot wide, or thin coasts vanish between the dots.
            if style.stroke != nil { style.lineWidth = max(style.lineWidth, cellWidth / 2 + 0.5) }
            return .path(subpaths, closed: closed, style: style, role: role)
        case .circle(let centre, let radius, var style, let role):
            style.fill = ink(style.fill)
            style.stroke = ink(style.stroke)
            return .circle(centre: centre, radius: radius, style: style, role: role)
        case .text:
            return item
        }
    }

    /// Text items and marker letters, as characters, without overlapping each other or leaving the grid.
    private static func overlay(_ layout: MapLayout, on cells: inout [[Cell]], columns: Int, rows: Int, colour: TerminalColour) {
        func put(_ text: String, column start: Int, row: Int, foreground: UInt32?, bold: Bool, force: Bool) -> Bool {
            let characters = Array(text)
            guard row >= 0, row < rows, start >= 0, start + characters.count <= columns else { return false }
            // One blank cell either side keeps names apart.
            let low = max(0, start - 1), high = min(columns - 1, start + characters.count)
            if !force, (low...high).contains(where: { cells[row][$0].isText }) { return false }
            for (offset, character) in characters.enumerated() {
                var cell = cells[row][start + offset]
                let background = cell.background.map { average($0, cell.foreground ?? $0) }
                cell = Cell(character: character, foreground: foreground, background: background, bold: bold, isText: true)
                cells[row][start + offset] = cell
            }
            return true
        }
        // Markers first, so no name covers them.
        for (point, glyph) in layout.glyphs {
            let column = Int(point.x / cellWidth), row = Int((point.y - 2) / cellHeight)
            guard row >= 0, row < rows, column >= 0, column < columns else { continue }
            let background = colour == .none ? nil : cells[row][column].foreground
            cells[row][column] = Cell(
                character: glyph, foreground: colour == .none ? nil : 0xFFFFFF, background: background, bold: true, isText: true)
        }
        for item in layout.items {
            guard case .text(let text, let point, let style) = item, style.rotation == 0 else { continue }
            let clean = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
            let length = clean.count
            let x = point.x / cellWidth
            let start: Int
            switch style.anchor {
            case .start: start = Int(x.rounded())
            case .middle: start = Int((x - Double(length) / 2).rounded())
            case .end: start = Int(x.rounded()) - length
            }
            let row = Int(((point.y - style.size * 0.35) / cellHeight).rounded(.down))
            let foreground: UInt32 = luminance(style.colour) > 0.6 ? 0xFFFFFF : 0x000000
            _ = put(
                clean, column: max(0, min(start, columns - length)), row: row,
                foreground: colour == .none ? nil : foreground, bold: style.bold, force: false)
        }
    }

    private static func escape(foreground: UInt32?, background: UInt32?, colour: TerminalColour, bold: Bool) -> String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if let foreground { codes.append(colour == .trueColour ? "38;2;\(rgb(foreground))" : "38;5;\(palette(foreground))") }
        if let background { codes.append(colour == .trueColour ? "48;2;\(rgb(background))" : "48;5;\(palette(background))") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    private static func rgb(_ pixel: UInt32) -> String { "\(pixel >> 16 & 0xFF);\(pixel >> 8 & 0xFF);\(pixel & 0xFF)" }

    /// The nearest colour of xterm's 6×6×6 cube or its grey ramp.
    static func palette(_ pixel: UInt32) -> Int {
        let r = Int(pixel >> 16 & 0xFF), g = Int(pixel >> 8 & 0xFF), b = Int(pixel & 0xFF)
        let levels = [0, 95, 135, 175, 215, 255]
        func level(_ v: Int) -> Int { levels.indices.min { abs(levels[$0] - v) < abs(levels[$1] - v) } ?? 0 }
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cubeError = abs(levels[lr] - r) + abs(levels[lg] - g) + abs(levels[lb] - b)
        let grey = max(0, min(23, ((r + g + b) / 3 - 8 + 5) / 10))
        let greyValue = 8 + grey * 10
        let greyError = abs(greyValue - r) + abs(greyValue - g) + abs(greyValue - b)
        return greyError < cubeError ? 232 + grey : 16 + 36 * lr + 6 * lg + lb
    }

    private static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        // One channel at a time, with its type given: as one expression of literals this was the slowest
        // function of the Guide to type-check.
        func channel(_ shift: UInt32) -> UInt32 {
            let first: UInt32 = a >> shift & 0xFF
            let second: UInt32 = b >> shift & 0xFF
            return (first + second) / 2
        }
        return channel(16) << 16 | channel(8) << 8 | channel(0)
    }

    static func luminance(_ pixel: UInt32) -> Double {
        let red: Double = Double(pixel >> 16 & 0xFF), green: Double = Double(pixel >> 8 & 0xFF), blue: Double = Double(pixel & 0xFF)
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255
    }

    static func luminance(_ colour: MapColour) -> Double {
        luminance(UInt32(colour.red) << 16 | UInt32(colour.green) << 8 | UInt32(colour.blue))
    }
}

fileprivate extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
