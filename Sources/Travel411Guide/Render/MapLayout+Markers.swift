import Foundation
import Travel411Core
import Travel411Geocoder

/// Markers, their rings, titles and callouts, and your dot or the off-screen arrow.
extension MapLayout {
    /// Where the markers are drawn: each on its own point, except those whose symbols would cover each
    /// other (and your dot, when it is among them), which go on a ring around their common point.
    struct Spread {
        var drawn: [ScreenPoint]
        var truePoints: [ScreenPoint]
        /// The point a ringed marker really stands for: its leader line runs there.
        var centres: [Int: ScreenPoint]
        /// Your dot is the centre of a ring: it is drawn where it is, and the ring keeps clear of it.
        var meInRing: Bool
    }

    /// Half the size a symbol takes across, for telling which symbols would cover each other.
    static func clearance(_ symbol: MarkerSymbol?) -> Double {
        switch symbol {
        case .pin: return MapStyle.pinHeadRadius * 1.5 / 2
        case .square: return 6.5
        case .dot, nil: return 7
        }
    }

    /// Markers closer than their symbols' sizes (pins 13.5 pixels apart, event squares 13) are one
    /// group; your dot joins a group it would cover. A group goes on a ring whose step is a symbol
    /// across: pins at least 40 pixels out, so that a pin below the centre clears your dot or the
    /// centre's mark, event squares at least 18.
    static func spread(_ scene: MapScene, _ viewport: MapViewport) -> Spread {
        let markers = scene.markers
        var points = markers.map { viewport.project($0.coordinate) }
        let truePoints = points
        var symbols: [MarkerSymbol?] = markers.map(\.symbol)
        if let me = scene.me {
            points.append(viewport.project(me))
            symbols.append(nil)
        }
        var drawn = truePoints
        var centres: [Int: ScreenPoint] = [:]
        var meInRing = false
        let groups = CoincidentPins.groups(points) { a, b in
            hypot(points[a].x - points[b].x, points[a].y - points[b].y) < clearance(symbols[a]) + clearance(symbols[b])
        }
        for group in groups {
            let members = group.filter { $0 < markers.count }
            guard members.count > 1 || (members.count == 1 && group.count > 1) else { continue }
            let hasMe = group.count > members.count
            // Your dot stays where you are; the ring goes round it.
            let mean =
                hasMe
                ? points[points.count - 1]
                : ScreenPoint(
                    x: members.map { points[$0].x }.reduce(0, +) / Double(members.count),
                    y: members.map { points[$0].y }.reduce(0, +) / Double(members.count))
            let centre = viewport.coordinate(at: mean)
            let count = Double(max(2, members.count))
            let hasPin = members.contains { markers[$0].symbol == .pin }
            let pixelStep = hasPin ? max(MapStyle.pinHeadRadius * 1.2, 40 / count) : max(4.5, 18 / count)
            let step = CoincidentPins.stepMetres(
                metresPerPixel: viewport.metresPerPixel(atLatitude: centre.latitude), pixelStep: pixelStep)
            for (index, coordinate) in zip(members, CoincidentPins.ring(around: centre, count: max(2, members.count), stepMetres: step)) {
                drawn[index] = viewport.project(coordinate)
                centres[index] = mean
            }
            if hasMe { meInRing = true }
        }
        return Spread(drawn: drawn, truePoints: truePoints, centres: centres, meInRing: meInRing)
    }

    /// The rectangle a marker's symbol covers when its point is at `point`.
    static func iconBox(_ symbol: MarkerSymbol, at point: ScreenPoint) -> ScreenRect {
        switch symbol {
        case .pin:
            let r = MapStyle.pinHeadRadius
            return ScreenRect(minX: point.x - r, minY: point.y - MapStyle.pinTop, maxX: point.x + r, maxY: point.y)
        case .dot: return ScreenRect(minX: point.x - 7, minY: point.y - 7, maxX: point.x + 7, maxY: point.y + 7)
        case .square: return ScreenRect(minX: point.x - 6.5, minY: point.y - 6.5, maxX: point.x + 6.5, maxY: point.y + 6.5)
        }
    }

    static let titleStyle = TextStyle(size: 13, bold: true, colour: MapStyle.text, halo: MapStyle.halo)

    /// Where a marker's title may go, in the order tried: right of the head, left, below, above, then
    /// the four corners.
    static func titleCandidates(symbol: MarkerSymbol, at point: ScreenPoint) -> [(ScreenPoint, TextAnchor)] {
        let middle = point.y - markerTop(symbol) / 2 + (symbol == .pin ? -5 : 0)
        let baseline = middle + 4.5
        let halfWidth = symbol == .pin ? MapStyle.pinHeadRadius : 7
        let above = point.y - markerTop(symbol) - 6, below = point.y + 16
        return [
            (ScreenPoint(x: point.x + halfWidth + 4, y: baseline), .start),
            (ScreenPoint(x: point.x - halfWidth - 4, y: baseline), .end),
            (ScreenPoint(x: point.x, y: below), .middle),
            (ScreenPoint(x: point.x, y: above), .middle),
            (ScreenPoint(x: point.x + halfWidth, y: below), .start),
            (ScreenPoint(x: point.x - halfWidth, y: below), .end),
            (ScreenPoint(x: point.x + halfWidth, y: above), .start),
            (ScreenPoint(x: point.x - halfWidth, y: above), .end),
        ]
    }

    static func titleBoxes(_ title: String, symbol: MarkerSymbol, at point: ScreenPoint, measure: TextMeasure) -> [ScreenRect] {
        titleCandidates(symbol: symbol, at: point).map { candidate in
            var style = titleStyle
            style.anchor = candidate.1
            return measure.box(title, at: candidate.0, style: style, padding: 1)
        }
    }

    static func markerTop(_ symbol: MarkerSymbol) -> Double {
        switch symbol {
        case .pin: return MapStyle.pinTop
        case .dot: return 7
        case .square: return 6
        }
    }

    // MARK: - Callout boxes

    static func calloutLines(_ marker: MapMarker) -> [String] {
        ([marker.title].compactMap { $0 } + marker.calloutLines).filter { !$0.isEmpty }
    }

    static let calloutPointerInset = 14.0, calloutArea = 6.0
    static let calloutPadding = 8.0, calloutTitleSize = 13.0, calloutLineSize = 11.0, calloutGap = 10.0

    /// Each callout's box: centred above its marker, its pointer reaching down to the marker's top.
    static func calloutBoxes(_ scene: MapScene, _ points: [ScreenPoint], within area: ScreenRect, measure: TextMeasure) -> [ScreenRect] {
        scene.callouts.compactMap { index in
            guard scene.markers.indices.contains(index) else { return nil }
            let lines = calloutLines(scene.markers[index])
            guard !lines.isEmpty else { return nil }
            let width =
                lines.enumerated().map { offset, line in
                    measure.width(line, size: offset == 0 ? calloutTitleSize : calloutLineSize, bold: offset == 0)
                }.max() ?? 0
            let height = calloutTitleSize * 1.3 + Double(lines.count - 1) * calloutLineSize * 1.35
            let top = points[index].y - markerTop(scene.markers[index].symbol) - calloutGap
            let boxWidth = width + 2 * calloutPadding, boxHeight = height + 2 * calloutPadding
            // Centred over the pin, slid sideways to stay inside the map as far as the pointer allows.
            let pinX = points[index].x
            var left = min(max(pinX - boxWidth / 2, area.minX), area.maxX - boxWidth)
            left = min(max(left, pinX - boxWidth + calloutPointerInset), pinX - calloutPointerInset)
            return ScreenRect(x: left, y: top - boxHeight, width: boxWidth, height: boxHeight)
        }
    }

    // MARK: - Drawing markers

    /// Leader lines from each ringed marker to its own true point, and a mark on that point.
    mutating func drawLeaders(_ spread: Spread) {
        let ringed = spread.centres.keys.sorted()
        for index in ringed {
            items.append(
                .path(
                    [[spread.truePoints[index], markerPoints[index]]], closed: false,
                    style: PathStyle(stroke: MapStyle.text.withAlpha(0.7), lineWidth: 1), role: .overlay))
        }
        var marked: [ScreenPoint] = []
        for index in ringed
        where !marked.contains(where: { hypot($0.x - spread.truePoints[index].x, $0.y - spread.truePoints[index].y) < 1 }) {
            marked.append(spread.truePoints[index])
            items.append(
                .circle(
                    centre: spread.truePoints[index], radius: 3, style: PathStyle(fill: MapStyle.text, stroke: .white, lineWidth: 1),
                    role: .overlay))
        }
    }

    mutating func drawMarker(_ marker: MapMarker, at point: ScreenPoint) {
        guard viewport.bounds.insetBy(-MapStyle.pinTop).contains(point) else { return }
        glyphs.append((point, marker.glyph))
        let kind: PlacedKind = marker.symbol == .square ? .eventMarker : .pin
        record(kind, marker.title ?? "", Self.iconBox(marker.symbol, at: point))
        switch marker.symbol {
        case .pin:
            let head = ScreenPoint(x: point.x, y: point.y - MapStyle.pinStem)
            let r = MapStyle.pinHeadRadius
            let spread = acos(r / MapStyle.pinStem)
            var outline: [ScreenPoint] = [point]
            // From the tangent point on the right, over the top, to the tangent point on the left.
            let start = .pi / 2 - spread, end = -(3 * .pi / 2) + spread
            for step in 0...24 {
                let angle = start + (end - start) * Double(step) / 24
                outline.append(ScreenPoint(x: head.x + r * cos(angle), y: head.y + r * sin(angle)))
            }
            items.append(
                .path(
                    [outline], closed: true, style: PathStyle(fill: marker.colour, stroke: MapColour.black.withAlpha(0.45), lineWidth: 1),
                    role: .marker))
            items.append(.circle(centre: head, radius: 3.5, style: PathStyle(fill: .white), role: .marker))
        case .dot:
            items.append(
                .circle(centre: point, radius: 6, style: PathStyle(fill: marker.colour, stroke: .white, lineWidth: 2), role: .marker))
        case .square:
            let s = 5.5
            let square = ScreenRect(minX: point.x - s, minY: point.y - s, maxX: point.x + s, maxY: point.y + s)
            items.append(
                .path([corners(square)], closed: true, style: PathStyle(fill: marker.colour, stroke: .white, lineWidth: 1.5), role: .marker)
            )
        }
    }

    /// A marker's title in the first free place around it (a ringed marker's facing out of the ring
    /// first); where none is free it is left out and named in `omitted`.
    mutating func placeMarkerTitle(_ marker: MapMarker, at point: ScreenPoint, ringCentre: ScreenPoint?) {
        guard let title = marker.title, !title.isEmpty, viewport.bounds.contains(point) else { return }
        var order = Array(Self.titleCandidates(symbol: marker.symbol, at: point).indices)
        let boxes = Self.titleBoxes(title, symbol: marker.symbol, at: point, measure: measure)
        if let ringCentre {
            let outward = (x: point.x - ringCentre.x, y: point.y - ringCentre.y)
            func facing(_ index: Int) -> Double {
                let c = boxes[index].centre
                return (c.x - point.x) * outward.x + (c.y - point.y) * outward.y
            }
            order.sort { facing($0) > facing($1) }
        }
        guard let chosen = placeFirstFree(.title, title, order.map { boxes[$0] }).map({ order[$0] }) else {
            omitted.append(title)
            return
        }
        var style = Self.titleStyle
        style.anchor = Self.titleCandidates(symbol: marker.symbol, at: point)[chosen].1
        items.append(.text(title, at: Self.titleCandidates(symbol: marker.symbol, at: point)[chosen].0, style: style))
    }

    // MARK: - You

    mutating func drawMe(_ scene: MapScene, inRing: Bool) {
        guard let me = scene.me else { return }
        let point = viewport.project(me)
        let inset = viewport.bounds.insetBy(Self.arrowInset)
        guard let arrow = OffscreenIndicator.pointing(from: viewport.centrePoint, to: point, inset: inset) else {
            items.append(.circle(centre: point, radius: 14, style: PathStyle(fill: MapColour.userBlue.withAlpha(0.18)), role: .overlay))
            items.append(
                .circle(centre: point, radius: 7, style: PathStyle(fill: MapColour.userBlue, stroke: .white, lineWidth: 2.5), role: .marker)
            )
            glyphs.append((point, "@"))
            record(.userDot, "You", ScreenRect(minX: point.x - 9, minY: point.y - 9, maxX: point.x + 9, maxY: point.y + 9))
            return
        }
        offscreen = arrow
        items.append(
            .path(
                [arrow.outline()], closed: true, style: PathStyle(fill: MapColour.userBlue, stroke: .white, lineWidth: 1.5), role: .marker))
        glyphs.append((arrow.tip, Self.arrowGlyph(arrow.angle)))
        record(.arrow, "You", ScreenGeometry.bounds(arrow.outline()))
        // The figure says what it measures: from the map's centre, along the arrow, to you.
        let distance =
            "You: \(DistanceFormatter.humanReadable(metres: GreatCircle.distance(from: viewport.centre, to: me))) from map centre"
        let style = TextStyle(size: 12, bold: true, colour: MapColour.userBlue, halo: MapStyle.halo, anchor: .middle)
        let arrowBox = ScreenGeometry.bounds(arrow.outline())
        let width = measure.width(distance, size: 12, bold: true) + 2, height = 12 * 1.05 + 2
        // Beside the arrow, the side towards the map's centre first, slid inside the map.
        let sides = [
            ScreenRect(x: arrowBox.centre.x - width / 2, y: arrowBox.minY - 2 - height, width: width, height: height),
            ScreenRect(x: arrowBox.centre.x - width / 2, y: arrowBox.maxY + 2, width: width, height: height),
            ScreenRect(x: arrowBox.minX - 4 - width, y: arrowBox.centre.y - height / 2, width: width, height: height),
            ScreenRect(x: arrowBox.maxX + 4, y: arrowBox.centre.y - height / 2, width: width, height: height),
        ].map(clampedInside)
        let centre = viewport.centrePoint
        let boxes = sides.sorted {
            hypot($0.centre.x - centre.x, $0.centre.y - centre.y) < hypot($1.centre.x - centre.x, $1.centre.y - centre.y)
        }
        guard let chosen = placeFirstFree(.arrowLabel, distance, boxes) else {
            omitted.append(distance)
            return
        }
        let box = boxes[chosen]
        items.append(.text(distance, at: ScreenPoint(x: box.centre.x, y: box.maxY - 1 - 12 * 0.25), style: style))
    }

    /// `box` moved the least that puts it inside the map, 3 pixels from the frame.
    func clampedInside(_ box: ScreenRect) -> ScreenRect {
        let area = viewport.bounds.insetBy(3)
        let dx = box.minX < area.minX ? area.minX - box.minX : box.maxX > area.maxX ? area.maxX - box.maxX : 0
        let dy = box.minY < area.minY ? area.minY - box.minY : box.maxY > area.maxY ? area.maxY - box.maxY : 0
        return box.offsetBy(dx: dx, dy: dy)
    }

    static func arrowGlyph(_ angle: Double) -> Character {
        let arrows: [Character] = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"]
        let octant = Int(((angle / (.pi / 4)).rounded() + 8).truncatingRemainder(dividingBy: 8))
        return arrows[octant]
    }

    /// A callout box with its pointer: from its bottom edge down to the marker's top, or, `below` the
    /// marker, from its top edge up to the marker's point.
    mutating func drawCallout(_ lines: [String], box: ScreenRect, anchor: ScreenPoint, symbol: MarkerSymbol, below: Bool = false) {
        let tip = below ? ScreenPoint(x: anchor.x, y: anchor.y + 1) : ScreenPoint(x: anchor.x, y: anchor.y - Self.markerTop(symbol) - 1)
        let pointerX = min(max(anchor.x, box.minX + Self.calloutPointerInset), box.maxX - Self.calloutPointerInset)
        let corner = 6.0
        var outline: [ScreenPoint] = []
        func arc(_ cx: Double, _ cy: Double, from: Double) {
            for step in 0...4 {
                let angle = from + Double(step) * (.pi / 2) / 4
                outline.append(ScreenPoint(x: cx + corner * cos(angle), y: cy + corner * sin(angle)))
            }
        }
        arc(box.minX + corner, box.minY + corner, from: .pi)
        if below { outline += [ScreenPoint(x: pointerX - 7, y: box.minY), tip, ScreenPoint(x: pointerX + 7, y: box.minY)] }
        arc(box.maxX - corner, box.minY + corner, from: 3 * .pi / 2)
        arc(box.maxX - corner, box.maxY - corner, from: 0)
        if !below { outline += [ScreenPoint(x: pointerX + 7, y: box.maxY), tip, ScreenPoint(x: pointerX - 7, y: box.maxY)] }
        arc(box.minX + corner, box.maxY - corner, from: .pi / 2)
        items.append(
            .path(
                [outline], closed: true,
                style: PathStyle(fill: MapColour.white.withAlpha(0.96), stroke: MapColour.black.withAlpha(0.35), lineWidth: 1),
                role: .decoration))
        var y = box.minY + Self.calloutPadding + Self.calloutTitleSize
        for (index, line) in lines.enumerated() {
            let size = index == 0 ? Self.calloutTitleSize : Self.calloutLineSize
            if index > 0 { y += size * 1.35 }
            items.append(
                .text(
                    line, at: ScreenPoint(x: box.minX + Self.calloutPadding, y: y),
                    style: TextStyle(size: size, bold: index == 0, colour: index == 0 ? MapStyle.text : MapStyle.mutedText)))
        }
    }
}
