import Foundation
import Travel411Core

/// SVG written directly: text stays `<text>`, so titles are searchable and selectable. Numbers have
/// one decimal, which is finer than a pixel and keeps the file small and the same on every run.
public final class SVGCanvas: MapCanvas {
    private var body = ""
    private let width: Double, height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public var document: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.number(width))" height="\(Self.number(height))" \
        viewBox="0 0 \(Self.number(width)) \(Self.number(height))" font-family="\(TextStyle.fontFamily), sans-serif">

        """ + body + "</svg>\n"
    }

    public func drawPath(_ subpaths: [[ScreenPoint]], closed: Bool, style: PathStyle, role: DrawRole) {
        var d = ""
        for points in subpaths where points.count > 1 {
            for (index, point) in points.enumerated() {
                d += (index == 0 ? "M" : "L") + Self.number(point.x) + " " + Self.number(point.y)
            }
            if closed { d += "Z" }
        }
        guard !d.isEmpty else { return }
        body += "<path d=\"\(d)\"\(attributes(style, closed: closed))/>\n"
    }

    public func drawCircle(centre: ScreenPoint, radius: Double, style: PathStyle, role: DrawRole) {
        body +=
            "<circle cx=\"\(Self.number(centre.x))\" cy=\"\(Self.number(centre.y))\" r=\"\(Self.number(radius))\"\(attributes(style, closed: true))/>\n"
    }

    public func drawText(_ text: String, at point: ScreenPoint, style: TextStyle) {
        var attributes = "x=\"\(Self.number(point.x))\" y=\"\(Self.number(point.y))\" font-size=\"\(Self.number(style.size))\""
        if style.bold { attributes += " font-weight=\"bold\"" }
        if style.italic { attributes += " font-style=\"italic\"" }
        if style.anchor != .start { attributes += " text-anchor=\"\(style.anchor.rawValue)\"" }
        attributes += " fill=\"\(style.colour.hex)\"" + Self.opacity("fill-opacity", style.colour)
        if let halo = style.halo {
            attributes +=
                " stroke=\"\(halo.hex)\"" + Self.opacity("stroke-opacity", halo)
                + " stroke-width=\"\(Self.number(style.size / 4))\" stroke-linejoin=\"round\" paint-order=\"stroke\""
        }
        if style.rotation != 0 {
            attributes +=
                " transform=\"rotate(\(Self.number(style.rotation * 180 / .pi)) \(Self.number(point.x)) \(Self.number(point.y)))\""
        }
        body += "<text \(attributes)>\(Self.escaped(text))</text>\n"
    }

    private func attributes(_ style: PathStyle, closed: Bool) -> String {
        var text = ""
        if let fill = style.fill, closed {
            text += " fill=\"\(fill.hex)\"" + Self.opacity("fill-opacity", fill) + " fill-rule=\"evenodd\""
        } else {
            text += " fill=\"none\""
        }
        if let stroke = style.stroke {
            text +=
                " stroke=\"\(stroke.hex)\"" + Self.opacity("stroke-opacity", stroke)
                + " stroke-width=\"\(Self.number(style.lineWidth))\" stroke-linejoin=\"round\" stroke-linecap=\"round\""
            if !style.dash.isEmpty { text += " stroke-dasharray=\"\(style.dash.map(Self.number).joined(separator: " "))\"" }
        }
        return text
    }

    private static func opacity(_ name: String, _ colour: MapColour) -> String {
        colour.alpha < 1 ? " \(name)=\"\(number(colour.alpha))\"" : ""
    }

    /// One decimal, without a trailing ".0" and never "-0".
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        if tenths == 0 { return "0" }
        let whole = Int(tenths) / 10, fraction = abs(Int(tenths) % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// Text as XML character data: the five special characters escaped, and characters XML 1.0 forbids
    /// (C0 controls other than tab and newline) dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) || (0xD800...0xDFFF).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
