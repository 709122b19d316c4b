import CCairo
import Foundation
import Travel411Core

/// How a path is filled and stroked.
public struct PathStyle: Hashable, Sendable {
    public var fill: MapColour?
    public var stroke: MapColour?
    public var lineWidth: Double
    public var dash: [Double]

    public init(fill: MapColour? = nil, stroke: MapColour? = nil, lineWidth: Double = 1, dash: [Double] = []) {
        self.fill = fill
        self.stroke = stroke
        self.lineWidth = lineWidth
        self.dash = dash
    }
}

public enum TextAnchor: String, Hashable, Sendable { case start, middle, end }

/// How a text is set. Its point is the anchor on the baseline.
public struct TextStyle: Hashable, Sendable {
    public var size: Double
    public var bold: Bool
    public var italic: Bool
    public var colour: MapColour
    /// A ring of this colour behind the letters, so they read on any background.
    public var halo: MapColour?
    public var anchor: TextAnchor
    /// Radians, clockwise on screen, about the anchor.
    public var rotation: Double

    public init(
        size: Double, bold: Bool = false, italic: Bool = false, colour: MapColour = .black,
        halo: MapColour? = nil, anchor: TextAnchor = .start, rotation: Double = 0
    ) {
        self.size = size
        self.bold = bold
        self.italic = italic
        self.colour = colour
        self.halo = halo
        self.anchor = anchor
        self.rotation = rotation
    }

    /// The font every backend asks for; DejaVu Sans is Debian's `fonts-dejavu-core`.
    public static let fontFamily = "DejaVu Sans"
}

/// What a drawn item is, for backends that cannot draw everything (the terminal without colour
/// draws lines and letters only).
public enum DrawRole: Hashable, Sendable {
    case background, area, line, overlay, marker, decoration
}

/// One thing to draw, in pixels. The layout makes a list of these; every backend walks the same list.
public enum DrawItem: Hashable, Sendable {
    /// Subpaths filled together (even-odd, so holes stay open) and stroked.
    case path([[ScreenPoint]], closed: Bool, style: PathStyle, role: DrawRole)
    case circle(centre: ScreenPoint, radius: Double, style: PathStyle, role: DrawRole)
    case text(String, at: ScreenPoint, style: TextStyle)
}

/// A backend: an output format that can draw paths, circles and text.
public protocol MapCanvas: AnyObject {
    func drawPath(_ subpaths: [[ScreenPoint]], closed: Bool, style: PathStyle, role: DrawRole)
    func drawCircle(centre: ScreenPoint, radius: Double, style: PathStyle, role: DrawRole)
    func drawText(_ text: String, at point: ScreenPoint, style: TextStyle)
}

extension MapCanvas {
    /// The one drawing path: a walk over the items in order.
    public func draw(_ items: [DrawItem]) {
        for item in items {
            switch item {
            case .path(let subpaths, let closed, let style, let role): drawPath(subpaths, closed: closed, style: style, role: role)
            case .circle(let centre, let radius, let style, let role): drawCircle(centre: centre, radius: radius, style: style, role: role)
            case .text(let text, let point, let style): drawText(text, at: point, style: style)
            }
        }
    }
}

/// Text widths from Cairo with the same font the backends use, so the layout can keep labels apart.
/// One per layout: a Cairo context is not shared between threads.
public final class TextMeasure {
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private var cache: [String: Double] = [:]
    /// Set for the terminal: every character takes one cell of this many layout pixels, whatever its size.
    public let cellWidth: Double?

    public init() {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        context = cairo_create(surface)
        cellWidth = nil
    }

    /// Widths as the terminal sets text: a character per cell of `cellWidth` layout pixels.
    public init(cellWidth: Double) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)
        context = cairo_create(surface)
        self.cellWidth = cellWidth
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// The advance width of `text` in pixels.
    public func width(_ text: String, size: Double, bold: Bool = false, italic: Bool = false) -> Double {
        if let cellWidth { return Double(text.count) * cellWidth }
        let key = "\(size)|\(bold)|\(italic)|\(text)"
        if let known = cache[key] { return known }
        CairoFont.select(context, size: size, bold: bold, italic: italic)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        cache[key] = extents.x_advance
        return extents.x_advance
    }

    /// The box a text of this style takes at `point` (not rotated), with `padding` around it.
    public func box(_ text: String, at point: ScreenPoint, style: TextStyle, padding: Double = 0) -> ScreenRect {
        let width = self.width(text, size: style.size, bold: style.bold, italic: style.italic)
        let left: Double
        switch style.anchor {
        case .start: left = point.x
        case .middle: left = point.x - width / 2
        case .end: left = point.x - width
        }
        if let cellWidth {
            // The row and columns TerminalMap sets it in, so boxes apart on the layout are apart in cells.
            let row = ((point.y - style.size * 0.35) / TerminalMap.cellHeight).rounded(.down)
            let column = (left / cellWidth).rounded()
            return ScreenRect(
                minX: column * cellWidth - padding, minY: row * TerminalMap.cellHeight - padding,
                maxX: column * cellWidth + width + padding, maxY: (row + 1) * TerminalMap.cellHeight + padding)
        }
        return ScreenRect(
            minX: left - padding, minY: point.y - style.size * 0.8 - padding,
            maxX: left + width + padding, maxY: point.y + style.size * 0.25 + padding)
    }
}

enum CairoFont {
    static func select(_ context: OpaquePointer, size: Double, bold: Bool, italic: Bool) {
        cairo_select_font_face(
            context, TextStyle.fontFamily,
            italic ? CAIRO_FONT_SLANT_OBLIQUE : CAIRO_FONT_SLANT_NORMAL,
            bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, size)
    }
}
