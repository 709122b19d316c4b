import CCairo
import Foundation
import Travel411Core

/// Cairo draws the PNG, the PDF and the terminal's raster: antialiased shapes and real text.
public final class CairoCanvas: MapCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    /// Which roles are drawn; the terminal leaves out text (it sets real letters instead).
    var drawsText = true
    var skippedRoles: Set<DrawRole> = []

    /// A raster of `width`×`height` pixels onto which a layout of `scale` times that size is drawn.
    init(rasterWidth width: Int, height: Int, scale: Double = 1) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        context = cairo_create(surface)
        cairo_scale(context, scale, scale)
    }

    /// A PDF page of `width`×`height` points, written to `path` when the canvas is finished.
    init(pdfPath path: String, width: Double, height: Double) {
        surface = cairo_pdf_surface_create(path, width, height)
        context = cairo_create(surface)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Nil, or Cairo's own words for what went wrong.
    var failure: String? {
        let status = cairo_status(context) != CAIRO_STATUS_SUCCESS ? cairo_status(context) : cairo_surface_status(surface)
        guard status != CAIRO_STATUS_SUCCESS, let message = cairo_status_to_string(status) else { return nil }
        return String(cString: message)
    }

    func writePNG(to path: String) -> String? {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status != CAIRO_STATUS_SUCCESS, let message = cairo_status_to_string(status) else { return nil }
        return String(cString: message)
    }

    func finish() {
        cairo_surface_finish(surface)
    }

    /// The raster's pixels as 0xRRGGBB, row by row.
    func pixels() -> (width: Int, height: Int, rows: [[UInt32]]) {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return (width, height, []) }
        var rows: [[UInt32]] = []
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            rows.append((0..<width).map { row[$0] & 0xFF_FFFF })
        }
        return (width, height, rows)
    }

    public func drawPath(_ subpaths: [[ScreenPoint]], closed: Bool, style: PathStyle, role: DrawRole) {
        guard !skippedRoles.contains(role) else { return }
        cairo_new_path(context)
        for points in subpaths where points.count > 1 {
            cairo_move_to(context, points[0].x, points[0].y)
            for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
            if closed { cairo_close_path(context) }
        }
        paint(style, closed: closed)
    }

    public func drawCircle(centre: ScreenPoint, radius: Double, style: PathStyle, role: DrawRole) {
        guard !skippedRoles.contains(role) else { return }
        cairo_new_path(context)
        cairo_arc(context, centre.x, centre.y, radius, 0, 2 * .pi)
        cairo_close_path(context)
        paint(style, closed: true)
    }

    public func drawText(_ text: String, at point: ScreenPoint, style: TextStyle) {
        guard drawsText else { return }
        cairo_save(context)
        CairoFont.select(context, size: style.size, bold: style.bold, italic: style.italic)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        cairo_translate(context, point.x, point.y)
        cairo_rotate(context, style.rotation)
        let x: Double
        switch style.anchor {
        case .start: x = 0
        case .middle: x = -extents.x_advance / 2
        case .end: x = -extents.x_advance
        }
        cairo_new_path(context)
        cairo_move_to(context, x, 0)
        cairo_text_path(context, text)
        if let halo = style.halo {
            set(halo)
            cairo_set_line_width(context, style.size / 4)
            cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke_preserve(context)
        }
        set(style.colour)
        cairo_fill(context)
        cairo_restore(context)
    }

    private func paint(_ style: PathStyle, closed: Bool) {
        if let fill = style.fill, closed {
            set(fill)
            cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
            if style.stroke != nil { cairo_fill_preserve(context) } else { cairo_fill(context) }
        }
        if let stroke = style.stroke {
            set(stroke)
            cairo_set_line_width(context, style.lineWidth)
            cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
            if style.dash.isEmpty {
                cairo_set_dash(context, nil, 0, 0)
            } else {
                cairo_set_dash(context, style.dash, Int32(style.dash.count), 0)
            }
            cairo_stroke(context)
        }
        cairo_new_path(context)
    }

    private func set(_ colour: MapColour) {
        cairo_set_source_rgba(context, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255, colour.alpha)
    }
}
