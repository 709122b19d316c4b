import Foundation
import Travel411Core

/// The scale bar, the north arrow, the credits and the legend.
extension MapLayout {
    static let scaleBarMaximumPixels = 120.0
    static let creditSize = 9.0, creditLineHeight = 11.0

    /// The north arrow's panel, in the top-right corner.
    static func northArrowPanel(width: Double) -> ScreenRect {
        let nx = width - 22, ny = 14.0
        return ScreenRect(minX: nx - 13, minY: ny - 6, maxX: nx + 13, maxY: ny + 44)
    }

    /// The most the scale bar can take, in the bottom-left corner: its panel at the longest bar and its label.
    static func scaleBarZone(height: Double) -> ScreenRect {
        ScreenRect(minX: 6, minY: height - 36, maxX: 12 + scaleBarMaximumPixels + 30, maxY: height - 6)
    }

    /// One credit per source, joined with " · " into lines that fit beside the scale bar.
    static func wrappedCredits(_ attribution: [String], width: Double, measure: TextMeasure) -> [String] {
        let available = max(120, width - 190)
        var lines: [String] = []
        for part in credits(attribution) {
            if let last = lines.last, measure.width(last + " · " + part, size: creditSize) <= available {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        return lines
    }

    static func creditPanel(_ lines: [String], width: Double, height: Double, measure: TextMeasure) -> ScreenRect? {
        guard !lines.isEmpty else { return nil }
        let textWidth = lines.map { measure.width($0, size: creditSize) }.max() ?? 0
        return ScreenRect(minX: width - textWidth - 8, minY: height - Double(lines.count) * creditLineHeight - 5, maxX: width, maxY: height)
    }

    /// Where the furniture goes, for callouts to keep clear of before it is drawn.
    static func furnitureKeepOut(width: Double, height: Double, credits: [String], measure: TextMeasure) -> [ScreenRect] {
        [northArrowPanel(width: width), scaleBarZone(height: height)]
            + [creditPanel(credits, width: width, height: height, measure: measure)].compactMap { $0 }
    }

    /// Draws the credits, the scale bar and the north arrow, and records their boxes.
    mutating func drawFurniture(credits attribution: [String]) {
        let width = viewport.width, height = viewport.height
        creditLines = Self.wrappedCredits(attribution, width: width, measure: measure)
        if drawsCredits, let panel = Self.creditPanel(creditLines, width: width, height: height, measure: measure) {
            items.append(.path([corners(panel)], closed: true, style: PathStyle(fill: MapStyle.panel), role: .decoration))
            let style = TextStyle(size: Self.creditSize, colour: MapStyle.mutedText, anchor: .end)
            for (index, line) in creditLines.enumerated() {
                items.append(
                    .text(line, at: ScreenPoint(x: width - 4, y: panel.minY + 9.5 + Double(index) * Self.creditLineHeight), style: style))
            }
            record(.credits, creditLines.joined(separator: " "), panel)
        }
        drawScaleBar()
        drawNorthArrow()
    }

    /// Bottom left: the longest 1, 2 or 5 × 10ⁿ metres that fits in 120 px.
    private mutating func drawScaleBar() {
        let metresPerPixel = viewport.metresPerPixel()
        guard metresPerPixel.isFinite, metresPerPixel > 0 else { return }
        let metres = Self.scaleBarMetres(metresPerPixel: metresPerPixel, maximumPixels: Self.scaleBarMaximumPixels)
        let length = metres / metresPerPixel
        let x = 12.0, y = viewport.height - 14
        let label = metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m"
        let labelStyle = TextStyle(size: 10, bold: true, colour: MapStyle.text, anchor: .middle)
        let labelBox = measure.box(label, at: ScreenPoint(x: x + length, y: y - 8), style: labelStyle)
        let panel = ScreenRect(minX: x - 6, minY: y - 22, maxX: max(x + length + 8, labelBox.maxX + 3), maxY: y + 8)
        items.append(.path([corners(panel)], closed: true, style: PathStyle(fill: MapStyle.panel), role: .decoration))
        items.append(
            .path(
                [[ScreenPoint(x: x, y: y), ScreenPoint(x: x + length, y: y)]], closed: false,
                style: PathStyle(stroke: MapStyle.text, lineWidth: 4), role: .decoration))
        items.append(
            .path(
                [[ScreenPoint(x: x + length / 2, y: y), ScreenPoint(x: x + length, y: y)]], closed: false,
                style: PathStyle(stroke: .white, lineWidth: 2), role: .decoration))
        for tick in [x, x + length] {
            items.append(
                .path(
                    [[ScreenPoint(x: tick, y: y - 5), ScreenPoint(x: tick, y: y + 3)]], closed: false,
                    style: PathStyle(stroke: MapStyle.text, lineWidth: 1.2), role: .decoration))
        }
        items.append(.text("0", at: ScreenPoint(x: x, y: y - 8), style: TextStyle(size: 10, colour: MapStyle.text, anchor: .middle)))
        items.append(.text(label, at: ScreenPoint(x: x + length, y: y - 8), style: labelStyle))
        record(.scaleBar, label, panel.union(labelBox))
    }

    private mutating func drawNorthArrow() {
        let panel = Self.northArrowPanel(width: viewport.width)
        let nx = panel.centre.x, ny = panel.minY + 6
        items.append(.path([corners(panel)], closed: true, style: PathStyle(fill: MapStyle.panel), role: .decoration))
        items.append(
            .path(
                [[ScreenPoint(x: nx, y: ny), ScreenPoint(x: nx + 8, y: ny + 24), ScreenPoint(x: nx, y: ny + 19)]], closed: true,
                style: PathStyle(fill: MapStyle.text), role: .decoration))
        items.append(
            .path(
                [[ScreenPoint(x: nx, y: ny), ScreenPoint(x: nx - 8, y: ny + 24), ScreenPoint(x: nx, y: ny + 19)]], closed: true,
                style: PathStyle(fill: .white, stroke: MapStyle.text, lineWidth: 1), role: .decoration))
        items.append(
            .text("N", at: ScreenPoint(x: nx, y: ny + 37), style: TextStyle(size: 11, bold: true, colour: MapStyle.text, anchor: .middle)))
        record(.northArrow, "N", panel)
    }

    /// One credit per source: the layers' attribution lines split at "; " and " · ", each credit kept
    /// once, in the order first met (the same "Made with Natural Earth" comes with every Natural
    /// Earth layer).
    static func credits(_ lines: [String]) -> [String] {
        var credits: [String] = []
        var seen: Set<String> = []
        for line in lines {
            for part in line.components(separatedBy: "; ").flatMap({ $0.components(separatedBy: " · ") }) {
                var credit = part.trimmingCharacters(in: .whitespaces)
                while credit.hasSuffix(".") { credit.removeLast() }
                guard !credit.isEmpty, seen.insert(credit.lowercased()).inserted else { continue }
                credits.append(credit)
            }
        }
        return credits
    }

    static func scaleBarMetres(metresPerPixel: Double, maximumPixels: Double) -> Double {
        let most = metresPerPixel * maximumPixels
        let power = pow(10, floor(log10(most)))
        for factor in [5.0, 2, 1] where factor * power <= most { return factor * power }
        return power
    }

    // MARK: - Legend

    /// The legend's sizes: full, and the smaller one tried when no corner has room for the full one.
    struct LegendMetrics {
        var size: Double, rowHeight: Double, padding: Double, symbolWidth: Double
        static let full = LegendMetrics(size: 11, rowHeight: 18, padding: 8, symbolWidth: 22)
        static let small = LegendMetrics(size: 9, rowHeight: 13, padding: 5, symbolWidth: 17)
    }

    /// The legend in the first place where it covers nothing placed so far (markers, your dot or
    /// arrow, callouts, furniture): top left, bottom left above the scale bar, top right below the north
    /// arrow, bottom right above the credits, then halfway down either side; smaller if no place has
    /// room; left out (and named in `omitted`) if even that has none.
    mutating func drawLegend(_ legend: MapLegend) {
        guard !legend.entries.isEmpty else { return }
        var rows: [(String, Bool)] = legend.title.map { [($0, true)] } ?? []
        rows += legend.entries.map { ($0.label, false) }
        for metrics in [LegendMetrics.full, .small] {
            let textWidth = rows.map { measure.width($0.0, size: metrics.size, bold: $0.1) + ($0.1 ? 0 : metrics.symbolWidth) }.max() ?? 0
            let size = (width: textWidth + 2 * metrics.padding, height: Double(rows.count) * metrics.rowHeight + metrics.padding)
            let boxes = legendCandidates(width: size.width, height: size.height)
            if let chosen = placeFirstFree(.legend, legend.title ?? "legend", boxes) {
                drawLegend(legend, in: boxes[chosen], metrics: metrics)
                return
            }
        }
        omitted.append("the legend")
    }

    private func legendCandidates(width: Double, height: Double) -> [ScreenRect] {
        let frame = viewport.bounds
        let north = Self.northArrowPanel(width: frame.width)
        let scaleTop = placed.first { $0.kind == .scaleBar }?.box.minY ?? frame.maxY - 6
        let creditsTop = placed.first { $0.kind == .credits }?.box.minY ?? frame.maxY - 6
        let middle = (frame.height - height) / 2
        return [
            ScreenRect(x: 10, y: 10, width: width, height: height),
            ScreenRect(x: 10, y: scaleTop - 6 - height, width: width, height: height),
            ScreenRect(x: frame.maxX - 10 - width, y: north.maxY + 6, width: width, height: height),
            ScreenRect(x: frame.maxX - 10 - width, y: creditsTop - 6 - height, width: width, height: height),
            ScreenRect(x: 10, y: middle, width: width, height: height),
            ScreenRect(x: frame.maxX - 10 - width, y: middle, width: width, height: height),
        ]
    }

    private mutating func drawLegend(_ legend: MapLegend, in box: ScreenRect, metrics: LegendMetrics) {
        items.append(
            .path(
                [corners(box)], closed: true, style: PathStyle(fill: MapStyle.panel, stroke: MapColour.black.withAlpha(0.3), lineWidth: 1),
                role: .decoration))
        let baseline = metrics.size
        var y = box.minY + metrics.padding
        if let title = legend.title {
            items.append(
                .text(
                    title, at: ScreenPoint(x: box.minX + metrics.padding, y: y + baseline),
                    style: TextStyle(size: metrics.size, bold: true, colour: MapStyle.text)))
            y += metrics.rowHeight
        }
        let symbolHalf = metrics.symbolWidth / 2 - 3
        for entry in legend.entries {
            let centre = ScreenPoint(x: box.minX + metrics.padding + symbolHalf, y: y + baseline * 0.63)
            switch entry.symbol {
            case .circle(let radius, let fill):
                items.append(
                    .circle(
                        centre: centre, radius: min(radius, symbolHalf),
                        style: PathStyle(fill: fill, stroke: MapColour.black.withAlpha(0.4), lineWidth: 0.8), role: .decoration))
            case .line(let colour):
                items.append(
                    .path(
                        [[ScreenPoint(x: centre.x - symbolHalf, y: centre.y), ScreenPoint(x: centre.x + symbolHalf, y: centre.y)]],
                        closed: false, style: PathStyle(stroke: colour, lineWidth: 3), role: .decoration))
            case .marker(let colour, let symbol):
                if symbol == .square {
                    let square = ScreenRect(minX: centre.x - 4.5, minY: centre.y - 4.5, maxX: centre.x + 4.5, maxY: centre.y + 4.5)
                    items.append(
                        .path(
                            [corners(square)], closed: true, style: PathStyle(fill: colour, stroke: .white, lineWidth: 1), role: .decoration
                        ))
                } else {
                    items.append(
                        .circle(
                            centre: centre, radius: 5, style: PathStyle(fill: colour, stroke: .white, lineWidth: 1.5), role: .decoration))
                }
            }
            items.append(
                .text(
                    entry.label, at: ScreenPoint(x: box.minX + metrics.padding + metrics.symbolWidth, y: y + baseline),
                    style: TextStyle(size: metrics.size, colour: MapStyle.text)))
            y += metrics.rowHeight
        }
    }
}
