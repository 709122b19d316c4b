import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM

/// The colours and sizes of the map, in one place.
enum MapStyle {
    static let sea = MapColour(hex: "#aad3df") ?? .white
    static let land = MapColour(hex: "#f2efe9") ?? .white
    static let lakeOutline = MapColour(hex: "#86b6c9") ?? .black
    static let countryBorder = MapColour(hex: "#8d7b9e") ?? .black
    static let adminBorder = MapColour(hex: "#b3a3c2") ?? .black
    static let districtBorder = MapColour(hex: "#c8b9cf") ?? .black
    static let streetCasing = MapColour(hex: "#cdc4b8") ?? .black
    static let street = MapColour.white
    static let frame = MapColour(hex: "#888888") ?? .black
    static let text = MapColour(hex: "#222222") ?? .black
    static let mutedText = MapColour(hex: "#5a5a5a") ?? .black
    static let countryText = MapColour(hex: "#6b5680") ?? .black
    static let seaText = MapColour(hex: "#3f7196") ?? .black
    static let districtText = MapColour(hex: "#8a7898") ?? .black
    static let halo = MapColour.white.withAlpha(0.85)
    static let panel = MapColour.white.withAlpha(0.85)

    /// A pin stands on its point: the head's centre is this far above it.
    static let pinStem = 21.0
    static let pinHeadRadius = 9.0
    static var pinTop: Double { pinStem + pinHeadRadius }
}

/// A scene projected for one output size: every item in pixels, and the numbers the tests check
/// (where each marker ended up, the off-screen arrow, the callout boxes and the shift they asked for).
public struct MapLayout {
    public let viewport: MapViewport
    public private(set) var items: [DrawItem] = []
    /// Where each marker's point is drawn: its projection, or its place on a ring of coincident pins.
    public private(set) var markerPoints: [ScreenPoint] = []
    /// Where each marker's own coordinate projects.
    public private(set) var truePoints: [ScreenPoint] = []
    public private(set) var offscreen: OffscreenIndicator?
    public private(set) var calloutBoxes: [ScreenRect] = []
    /// Pixels the drawing was moved (right, down) so that the callouts fit; zero when they did.
    public private(set) var calloutShift: (dx: Double, dy: Double) = (0, 0)
    /// Letters standing for markers where colour is not available (the terminal under NO_COLOR).
    public private(set) var glyphs: [(point: ScreenPoint, glyph: Character)] = []

    /// Space kept around the region so that pins and their titles at its edge are not cut off.
    public static let margin = 44.0
    /// The inset rectangle the off-screen arrow stays within, this far from the edges.
    public static let arrowInset = 30.0

    private let measure: TextMeasure
    private var placer: LabelPlacer

    /// Projects `scene` for `width`×`height` pixels. `basemap`, when given, reads the basemap for
    /// the final view (after any callout shift); otherwise the scene's own basemap is drawn.
    public init(
        scene: MapScene, width: Double, height: Double, measure: TextMeasure = TextMeasure(),
        basemap source: ((MapViewport) throws -> Basemap)? = nil
    ) rethrows {
        self.measure = measure
        var viewport = MapViewport.fitting(scene.region, width: width, height: height, margin: Self.margin)
        if scene.fitsMarkers { viewport = Self.fittingMarkers(scene, in: viewport, measure: measure) }
        // The callouts decide the final view: move it just enough that every one fits.
        let area = viewport.bounds.insetBy(Self.calloutArea)
        let boxes = Self.calloutBoxes(scene, Self.spread(scene.markers, viewport).drawn, within: area, measure: measure)
        if !boxes.isEmpty {
            let shift = CalloutFit.shift(for: boxes, within: area)
            if shift.dx != 0 || shift.dy != 0 {
                viewport = viewport.moved(dx: shift.dx, dy: shift.dy)
                calloutShift = shift
            }
        }
        self.viewport = viewport
        placer = LabelPlacer(area: viewport.bounds.insetBy(2))
        let basemap = try source?(viewport) ?? scene.basemap
        build(scene, basemap: basemap)
    }

    // MARK: - Fitting the markers

    /// Pixels kept between the output's edge and any marker, title or callout the fit places.
    public static let markerInset = 12.0

    /// `start` zoomed out and moved as little as it takes for every marker (on its ring, when it has
    /// one), its title or callout, and the user's dot when it is in view, to lie inside the output less
    /// `markerInset`. The pins' points move with the zoom; their icons, titles and rings keep their size
    /// in pixels, so the zoom needed follows from the two, and a few rounds settle what the new scale
    /// changes (which pins share a ring, which side a title goes).
    static func fittingMarkers(_ scene: MapScene, in start: MapViewport, measure: TextMeasure) -> MapViewport {
        let area = start.bounds.insetBy(markerInset)
        var viewport = start
        for _ in 0..<6 {
            guard let (footprint, anchors) = markerFootprint(scene, viewport, area: area, measure: measure) else { return viewport }
            if area.contains(footprint) { return viewport }
            let fixedX = (anchors.minX - footprint.minX) + (footprint.maxX - anchors.maxX)
            let fixedY = (anchors.minY - footprint.minY) + (footprint.maxY - anchors.maxY)
            var zoom = 1.0
            if anchors.width > 0.5, footprint.width > area.width { zoom = min(zoom, (area.width - fixedX) / anchors.width) }
            if anchors.height > 0.5, footprint.height > area.height { zoom = min(zoom, (area.height - fixedY) / anchors.height) }
            // What is fixed in pixels alone may not fit (a title wider than the map): zoom no further than a tenth.
            zoom = max(zoom, 0.1)
            var zoomed = viewport
            if zoom < 1 {
                zoomed = MapViewport(
                    width: viewport.width, height: viewport.height, centre: viewport.centre,
                    pixelsPerDegree: viewport.pixelsPerDegree * zoom * 0.995)
            }
            guard let (moved, _) = markerFootprint(scene, zoomed, area: area, measure: measure) else { return zoomed }
            viewport = zoomed.moved(
                dx: fitShift(moved.minX, moved.maxX, area.minX, area.maxX), dy: fitShift(moved.minY, moved.maxY, area.minY, area.maxY))
        }
        return viewport
    }

    /// The move along one axis that brings [low, high] inside [areaLow, areaHigh], or centres it there
    /// when it is the wider.
    private static func fitShift(_ low: Double, _ high: Double, _ areaLow: Double, _ areaHigh: Double) -> Double {
        if high - low > areaHigh - areaLow { return (areaLow + areaHigh) / 2 - (low + high) / 2 }
        if low < areaLow { return areaLow - low }
        if high > areaHigh { return areaHigh - high }
        return 0
    }

    /// What the markers take on screen (icons, titles, callouts, the user's dot when in view) and the
    /// box of the points they stand on; nil without markers.
    static func markerFootprint(_ scene: MapScene, _ viewport: MapViewport, area: ScreenRect, measure: TextMeasure) -> (
        footprint: ScreenRect, anchors: ScreenRect
    )? {
        guard !scene.markers.isEmpty else { return nil }
        let spread = spread(scene.markers, viewport)
        var boxes: [ScreenRect] = []
        var anchors: ScreenRect?
        let calloutBoxes = calloutBoxes(scene, spread.drawn, within: area, measure: measure)
        for (index, marker) in scene.markers.enumerated() {
            let point = spread.drawn[index], truePoint = spread.truePoints[index]
            let anchor = ScreenRect(minX: truePoint.x, minY: truePoint.y, maxX: truePoint.x, maxY: truePoint.y)
            anchors = anchors?.union(anchor) ?? anchor
            let icon = iconBox(marker.symbol, at: point)
            boxes.append(icon)
            boxes.append(anchor)
            if !scene.callouts.contains(index), let title = marker.title, !title.isEmpty {
                let sides = titleBoxes(title, symbol: marker.symbol, at: point, measure: measure)
                boxes.append(sides.first { area.contains($0) } ?? sides[0])
            }
        }
        boxes += calloutBoxes
        if let me = scene.me {
            let point = viewport.project(me)
            if viewport.bounds.contains(point) {
                boxes.append(ScreenRect(minX: point.x - 7, minY: point.y - 7, maxX: point.x + 7, maxY: point.y + 7))
            }
        }
        guard let anchors, let first = boxes.first else { return nil }
        return (boxes.dropFirst().reduce(first) { $0.union($1) }, anchors)
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

    /// Where a marker's title may go, in the order tried: right of the head, left, below, above.
    static func titleCandidates(symbol: MarkerSymbol, at point: ScreenPoint) -> [(ScreenPoint, TextAnchor)] {
        let middle = point.y - markerTop(symbol) / 2 + (symbol == .pin ? -5 : 0)
        let baseline = middle + 4.5
        let halfWidth = symbol == .pin ? MapStyle.pinHeadRadius : 7
        return [
            (ScreenPoint(x: point.x + halfWidth + 4, y: baseline), .start),
            (ScreenPoint(x: point.x - halfWidth - 4, y: baseline), .end),
            (ScreenPoint(x: point.x, y: point.y + 16), .middle),
            (ScreenPoint(x: point.x, y: point.y - markerTop(symbol) - 6), .middle),
        ]
    }

    static func titleBoxes(_ title: String, symbol: MarkerSymbol, at point: ScreenPoint, measure: TextMeasure) -> [ScreenRect] {
        titleCandidates(symbol: symbol, at: point).map { candidate in
            var style = titleStyle
            style.anchor = candidate.1
            return measure.box(title, at: candidate.0, style: style, padding: 1)
        }
    }

    // MARK: - Pins

    /// Markers within a few pixels of each other go on a ring whose step is a pin's head across.
    static func spread(_ markers: [MapMarker], _ viewport: MapViewport) -> (
        drawn: [ScreenPoint], truePoints: [ScreenPoint], centres: [Int: ScreenPoint]
    ) {
        let truePoints = markers.map { viewport.project($0.coordinate) }
        var drawn = truePoints
        var centres: [Int: ScreenPoint] = [:]
        for group in CoincidentPins.groups(truePoints, threshold: MapStyle.pinHeadRadius * 1.5) where group.count > 1 {
            let mean = ScreenPoint(
                x: group.map { truePoints[$0].x }.reduce(0, +) / Double(group.count),
                y: group.map { truePoints[$0].y }.reduce(0, +) / Double(group.count))
            let centre = viewport.coordinate(at: mean)
            let step = CoincidentPins.stepMetres(
                metresPerPixel: viewport.metresPerPixel(atLatitude: centre.latitude),
                pixelStep: MapStyle.pinHeadRadius * 1.2)
            for (index, coordinate) in zip(group, CoincidentPins.ring(around: centre, count: group.count, stepMetres: step)) {
                drawn[index] = viewport.project(coordinate)
                centres[index] = mean
            }
        }
        return (drawn, truePoints, centres)
    }

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

    static func markerTop(_ symbol: MarkerSymbol) -> Double {
        switch symbol {
        case .pin: return MapStyle.pinTop
        case .dot: return 7
        case .square: return 6
        }
    }

    // MARK: - Building the drawing

    private mutating func build(_ scene: MapScene, basemap: Basemap) {
        let clip = viewport.bounds.insetBy(-20)
        items.append(
            .path(
                [
                    [
                        ScreenPoint(x: 0, y: 0), ScreenPoint(x: viewport.width, y: 0),
                        ScreenPoint(x: viewport.width, y: viewport.height), ScreenPoint(x: 0, y: viewport.height),
                    ]
                ],
                closed: true, style: PathStyle(fill: MapStyle.sea), role: .background))
        drawBasemap(basemap, clip: clip)
        for circle in scene.circles { drawCircle(circle) }
        for polyline in scene.polylines {
            let parts = ScreenGeometry.clippedLine(ScreenGeometry.thinned(viewport.project(polyline.coordinates)), to: clip)
            guard !parts.isEmpty else { continue }
            items.append(
                .path(
                    parts, closed: false, style: PathStyle(stroke: MapColour.white.withAlpha(0.9), lineWidth: polyline.width + 2.5),
                    role: .overlay))
            items.append(
                .path(
                    parts, closed: false,
                    style: PathStyle(
                        stroke: polyline.colour, lineWidth: polyline.width,
                        dash: polyline.dashed ? [6, 4] : []), role: .overlay))
        }

        // Fixed furniture first, so that no label is set under it.
        let furniture = drawFurniture(scene, attribution: basemap.attribution)
        furniture.forEach { placer.reserve($0) }

        let spread = Self.spread(scene.markers, viewport)
        markerPoints = spread.drawn
        truePoints = spread.truePoints
        for (index, centre) in spread.centres.sorted(by: { $0.key < $1.key }) {
            items.append(
                .path(
                    [[centre, markerPoints[index]]], closed: false,
                    style: PathStyle(stroke: MapStyle.text.withAlpha(0.7), lineWidth: 1), role: .overlay))
        }
        if !spread.centres.isEmpty {
            for centre in Set(spread.centres.values) {
                items.append(
                    .circle(centre: centre, radius: 3, style: PathStyle(fill: MapStyle.text, stroke: .white, lineWidth: 1), role: .overlay))
            }
        }
        for (index, marker) in scene.markers.enumerated() {
            drawMarker(marker, at: markerPoints[index])
        }
        drawMe(scene)

        calloutBoxes = Self.calloutBoxes(scene, markerPoints, within: viewport.bounds.insetBy(Self.calloutArea), measure: measure)
        calloutBoxes.forEach { placer.reserve($0) }
        for (index, marker) in scene.markers.enumerated() where !scene.callouts.contains(index) {
            placeMarkerTitle(marker, at: markerPoints[index])
        }
        for circle in scene.circles { placeCircleLabel(circle) }
        for (box, index) in zip(
            calloutBoxes, scene.callouts.filter { scene.markers.indices.contains($0) && !Self.calloutLines(scene.markers[$0]).isEmpty })
        {
            drawCallout(Self.calloutLines(scene.markers[index]), box: box, anchor: markerPoints[index], symbol: scene.markers[index].symbol)
        }
        placeBasemapLabels(basemap.labels, besides: Set(scene.markers.compactMap(\.title)))
        items.append(
            .path(
                [
                    [
                        ScreenPoint(x: 0.5, y: 0.5), ScreenPoint(x: viewport.width - 0.5, y: 0.5),
                        ScreenPoint(x: viewport.width - 0.5, y: viewport.height - 0.5), ScreenPoint(x: 0.5, y: viewport.height - 0.5),
                    ]
                ],
                closed: true, style: PathStyle(stroke: MapStyle.frame, lineWidth: 1), role: .decoration))
    }

    private mutating func drawBasemap(_ basemap: Basemap, clip: ScreenRect) {
        func rings(_ shape: Shape) -> [[ScreenPoint]] {
            shape.rings.compactMap { ring in
                let clipped = ScreenGeometry.clippedRing(ScreenGeometry.thinned(viewport.project(lonLat: ring)), to: clip)
                return clipped.isEmpty ? nil : clipped
            }
        }
        func lines(_ shape: Shape) -> [[ScreenPoint]] {
            shape.lines.flatMap { ScreenGeometry.clippedLine(ScreenGeometry.thinned(viewport.project(lonLat: $0)), to: clip) }
        }
        /// Outlines as open lines, without the cuts Natural Earth makes along ±180°, which are no border.
        func outlines(_ shape: Shape) -> [[ScreenPoint]] {
            shape.rings.flatMap { ring in
                ScreenGeometry.withoutAntimeridianEdges(ring).flatMap {
                    ScreenGeometry.clippedLine(ScreenGeometry.thinned(viewport.project(lonLat: $0)), to: clip)
                }
            }
        }
        let layers = BasemapLayerKind.allCases.flatMap { kind in basemap.layers.filter { $0.kind == kind } }
        var strokes: [BasemapLayerKind: [[ScreenPoint]]] = [:]
        for layer in layers {
            switch layer.kind {
            case .land, .lake:
                let fill = layer.kind == .land ? MapStyle.land : MapStyle.sea
                for shape in layer.shapes {
                    let projected = rings(shape)
                    guard !projected.isEmpty else { continue }
                    items.append(.path(projected, closed: true, style: PathStyle(fill: fill), role: .area))
                    strokes[layer.kind, default: []] += outlines(shape)
                }
            case .admin, .district:
                strokes[layer.kind, default: []] += layer.shapes.flatMap(outlines)
            case .street:
                strokes[.street, default: []] += layer.shapes.flatMap(lines)
            }
        }
        let streetWidth = viewport.metresPerPixel() < 6 ? 3.0 : 1.4
        let styles: [(BasemapLayerKind, PathStyle)] = [
            (.lake, PathStyle(stroke: MapStyle.lakeOutline, lineWidth: 0.6)),
            (.district, PathStyle(stroke: MapStyle.districtBorder, lineWidth: 1)),
            (.admin, PathStyle(stroke: MapStyle.adminBorder, lineWidth: 0.9, dash: [4, 3])),
            (.street, PathStyle(stroke: MapStyle.streetCasing, lineWidth: streetWidth + 1.2)),
            (.street, PathStyle(stroke: MapStyle.street, lineWidth: streetWidth)),
            (.land, PathStyle(stroke: MapStyle.countryBorder, lineWidth: 1.1)),
        ]
        for (kind, style) in styles {
            guard let paths = strokes[kind], !paths.isEmpty else { continue }
            items.append(.path(paths, closed: false, style: style, role: .line))
        }
    }

    private mutating func drawCircle(_ circle: MapCircle) {
        let centre = viewport.project(circle.centre)
        let radius: Double
        switch circle.radius {
        case .pixels(let pixels): radius = pixels
        case .metres(let metres):
            let north = viewport.project(GreatCircle.destination(from: circle.centre, distance: metres, bearing: 0))
            radius = abs(centre.y - north.y)
        }
        guard viewport.bounds.insetBy(-radius).contains(centre) else { return }
        items.append(
            .circle(
                centre: centre, radius: max(1, radius), style: PathStyle(fill: circle.fill, stroke: circle.stroke, lineWidth: 1.2),
                role: .overlay))
    }

    private mutating func placeCircleLabel(_ circle: MapCircle) {
        guard let label = circle.label else { return }
        let centre = viewport.project(circle.centre)
        guard viewport.bounds.contains(centre) else { return }
        let style = TextStyle(size: 10, colour: MapStyle.text, halo: MapStyle.halo, anchor: .middle)
        let at = ScreenPoint(x: centre.x, y: centre.y + 3.5)
        if placer.place([measure.box(label, at: at, style: style)]) != nil { items.append(.text(label, at: at, style: style)) }
    }

    private mutating func drawMarker(_ marker: MapMarker, at point: ScreenPoint) {
        guard viewport.bounds.insetBy(-MapStyle.pinTop).contains(point) else { return }
        glyphs.append((point, marker.glyph))
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
            placer.reserve(ScreenRect(minX: point.x - r, minY: point.y - MapStyle.pinTop, maxX: point.x + r, maxY: point.y))
        case .dot:
            items.append(
                .circle(centre: point, radius: 6, style: PathStyle(fill: marker.colour, stroke: .white, lineWidth: 2), role: .marker))
            placer.reserve(ScreenRect(minX: point.x - 7, minY: point.y - 7, maxX: point.x + 7, maxY: point.y + 7))
        case .square:
            let s = 5.5
            items.append(
                .path(
                    [
                        [
                            ScreenPoint(x: point.x - s, y: point.y - s), ScreenPoint(x: point.x + s, y: point.y - s),
                            ScreenPoint(x: point.x + s, y: point.y + s), ScreenPoint(x: point.x - s, y: point.y + s),
                        ]
                    ],
                    closed: true, style: PathStyle(fill: marker.colour, stroke: .white, lineWidth: 1.5), role: .marker))
            placer.reserve(ScreenRect(minX: point.x - s - 1, minY: point.y - s - 1, maxX: point.x + s + 1, maxY: point.y + s + 1))
        }
    }

    /// A marker's title beside its head: right, else left, else below, else right regardless.
    private mutating func placeMarkerTitle(_ marker: MapMarker, at point: ScreenPoint) {
        guard let title = marker.title, !title.isEmpty, viewport.bounds.contains(point) else { return }
        let style = Self.titleStyle
        let candidates = Self.titleCandidates(symbol: marker.symbol, at: point)
        let boxes = Self.titleBoxes(title, symbol: marker.symbol, at: point, measure: measure)
        // Where every side is taken, the first that is inside the map rather than one cut by its edge.
        let chosen = placer.place(boxes) ?? boxes.firstIndex { viewport.bounds.insetBy(2).contains($0) } ?? 0
        if !placer.isFree(boxes[chosen]) { placer.reserve(boxes[chosen]) }
        var s = style
        s.anchor = candidates[chosen].1
        items.append(.text(title, at: candidates[chosen].0, style: s))
    }

    private mutating func drawMe(_ scene: MapScene) {
        guard let me = scene.me else { return }
        let point = viewport.project(me)
        let inset = viewport.bounds.insetBy(Self.arrowInset)
        if let arrow = OffscreenIndicator.pointing(from: viewport.centrePoint, to: point, inset: inset) {
            offscreen = arrow
            items.append(
                .path(
                    [arrow.outline()], closed: true, style: PathStyle(fill: MapColour.userBlue, stroke: .white, lineWidth: 1.5),
                    role: .marker))
            glyphs.append((arrow.tip, Self.arrowGlyph(arrow.angle)))
            let distance = DistanceFormatter.humanReadable(metres: GreatCircle.distance(from: viewport.centre, to: me))
            // The distance sits behind the arrow, towards the centre.
            let style = TextStyle(size: 12, bold: true, colour: MapColour.userBlue, halo: MapStyle.halo, anchor: .middle)
            let halfWidth = measure.width(distance, size: 12, bold: true) / 2
            let behind = 26 + 6 + abs(cos(arrow.angle)) * halfWidth + abs(sin(arrow.angle)) * 9
            let back = ScreenPoint(x: arrow.tip.x - cos(arrow.angle) * behind, y: arrow.tip.y - sin(arrow.angle) * behind + 4)
            placer.reserve(ScreenGeometry.bounds(arrow.outline()))
            placer.reserve(measure.box(distance, at: back, style: style, padding: 1))
            items.append(.text(distance, at: back, style: style))
        } else {
            items.append(.circle(centre: point, radius: 14, style: PathStyle(fill: MapColour.userBlue.withAlpha(0.18)), role: .overlay))
            items.append(
                .circle(centre: point, radius: 7, style: PathStyle(fill: MapColour.userBlue, stroke: .white, lineWidth: 2.5), role: .marker)
            )
            glyphs.append((point, "@"))
            placer.reserve(ScreenRect(minX: point.x - 9, minY: point.y - 9, maxX: point.x + 9, maxY: point.y + 9))
        }
    }

    static func arrowGlyph(_ angle: Double) -> Character {
        let arrows: [Character] = ["→", "↘", "↓", "↙", "←", "↖", "↑", "↗"]
        let octant = Int(((angle / (.pi / 4)).rounded() + 8).truncatingRemainder(dividingBy: 8))
        return arrows[octant]
    }

    private mutating func drawCallout(_ lines: [String], box: ScreenRect, anchor: ScreenPoint, symbol: MarkerSymbol) {
        let top = anchor.y - Self.markerTop(symbol)
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
        arc(box.maxX - corner, box.minY + corner, from: 3 * .pi / 2)
        arc(box.maxX - corner, box.maxY - corner, from: 0)
        outline += [
            ScreenPoint(x: pointerX + 7, y: box.maxY), ScreenPoint(x: anchor.x, y: top - 1), ScreenPoint(x: pointerX - 7, y: box.maxY),
        ]
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

    /// Pixels across (the square root of its box's area on screen) that a country needs to be named.
    static let smallestNamedCountry = 10.0

    private mutating func placeBasemapLabels(_ labels: [BasemapLabel], besides markerTitles: Set<String>) {
        let order: [BasemapLabelKind] = [.country, .sea, .locality, .district, .street]
        let showsDots = viewport.longitudeSpan > 1.5
        // A place already named by a pin is not named twice.
        var placedNames = markerTitles
        var localityCount = 0
        for kind in order {
            for label in labels.filter({ $0.kind == kind }).sorted(by: { $0.rank > $1.rank || ($0.rank == $1.rank && $0.text < $1.text) }) {
                let point = viewport.project(label.coordinate)
                guard viewport.bounds.contains(point) else { continue }
                switch kind {
                case .country:
                    // A country a few pixels across (Vatican, Anguilla on a world map) is not named: its name would
                    // stand over a bigger neighbour whose own label did not fit, as if it were that country's.
                    guard label.rank.squareRoot() * viewport.pixelsPerDegree >= Self.smallestNamedCountry else { continue }
                    let style = TextStyle(size: 12, bold: true, colour: MapStyle.countryText, halo: MapStyle.halo, anchor: .middle)
                    place(label.text, at: ScreenPoint(x: point.x, y: point.y + 4), style: style)
                case .sea:
                    let style = TextStyle(
                        size: 11, italic: true, colour: MapStyle.seaText, halo: MapColour.white.withAlpha(0.4), anchor: .middle)
                    place(label.text, at: ScreenPoint(x: point.x, y: point.y + 4), style: style)
                case .district:
                    let style = TextStyle(size: 10.5, italic: true, colour: MapStyle.districtText, halo: MapStyle.halo, anchor: .middle)
                    place(label.text, at: ScreenPoint(x: point.x, y: point.y + 4), style: style)
                case .locality:
                    guard localityCount < 40, !placedNames.contains(label.text) else { continue }
                    let size = label.rank >= 1_000_000 ? 13.0 : label.rank >= 100_000 ? 12.0 : 11
                    let style = TextStyle(
                        size: size, bold: label.rank >= 1_000_000, colour: MapStyle.text, halo: MapStyle.halo,
                        anchor: showsDots ? .start : .middle)
                    if showsDots {
                        let dot = ScreenRect(minX: point.x - 3, minY: point.y - 3, maxX: point.x + 3, maxY: point.y + 3)
                        let at = ScreenPoint(x: point.x + 5, y: point.y + 4)
                        let box = measure.box(label.text, at: at, style: style, padding: 1)
                        guard placer.isFree(dot), placer.isFree(box) else { continue }
                        placer.reserve(dot)
                        placer.reserve(box)
                        items.append(
                            .circle(
                                centre: point, radius: 2.5, style: PathStyle(fill: MapStyle.text, stroke: .white, lineWidth: 1),
                                role: .overlay))
                        items.append(.text(label.text, at: at, style: style))
                    } else if !place(label.text, at: ScreenPoint(x: point.x, y: point.y + 4), style: style) {
                        continue
                    }
                    placedNames.insert(label.text)
                    localityCount += 1
                case .street:
                    guard let (from, to) = label.along else { continue }
                    let a = viewport.project(from), b = viewport.project(to)
                    var angle = atan2(b.y - a.y, b.x - a.x)
                    if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
                    let style = TextStyle(size: 10, colour: MapStyle.mutedText, halo: MapStyle.halo, anchor: .middle, rotation: angle)
                    let width = measure.width(label.text, size: 10)
                    guard hypot(b.x - a.x, b.y - a.y) >= width + 6 else { continue }
                    let mid = ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
                    // The box of the rotated text, upright.
                    let (c, s) = (abs(cos(angle)), abs(sin(angle)))
                    let halfW = (width * c + 10 * s) / 2 + 1, halfH = (width * s + 10 * c) / 2 + 1
                    let box = ScreenRect(minX: mid.x - halfW, minY: mid.y - halfH, maxX: mid.x + halfW, maxY: mid.y + halfH)
                    guard placer.place([box]) != nil else { continue }
                    items.append(.text(label.text, at: ScreenPoint(x: mid.x + sin(angle) * 3.5, y: mid.y + cos(angle) * 3.5), style: style))
                }
            }
        }
    }

    @discardableResult
    private mutating func place(_ text: String, at point: ScreenPoint, style: TextStyle) -> Bool {
        guard placer.place([measure.box(text, at: point, style: style, padding: 2)]) != nil else { return false }
        items.append(.text(text, at: point, style: style))
        return true
    }

    // MARK: - Furniture: scale bar, north arrow, attribution, legend

    /// Draws them and returns the rectangles they take.
    private mutating func drawFurniture(_ scene: MapScene, attribution: [String]) -> [ScreenRect] {
        var taken: [ScreenRect] = []
        let width = viewport.width, height = viewport.height

        // Attribution, bottom right, wrapped to the width left of the scale bar.
        let attributionStyle = TextStyle(size: 9, colour: MapStyle.mutedText, anchor: .end)
        let available = max(120, width - 190)
        var lines: [String] = []
        for part in Self.credits(attribution + scene.attributionLines) {
            if let last = lines.last, measure.width(last + " · " + part, size: 9) <= available {
                lines[lines.count - 1] = last + " · " + part
            } else {
                lines.append(part)
            }
        }
        if !lines.isEmpty {
            let lineHeight = 11.0
            let textWidth = lines.map { measure.width($0, size: 9) }.max() ?? 0
            let panel = ScreenRect(
                minX: width - textWidth - 8, minY: height - Double(lines.count) * lineHeight - 5, maxX: width, maxY: height)
            items.append(.path([corners(panel)], closed: true, style: PathStyle(fill: MapStyle.panel), role: .decoration))
            for (index, line) in lines.enumerated() {
                items.append(
                    .text(line, at: ScreenPoint(x: width - 4, y: panel.minY + 9.5 + Double(index) * lineHeight), style: attributionStyle))
            }
            taken.append(panel)
        }

        // Scale bar, bottom left: the longest 1, 2 or 5 × 10ⁿ metres that fits in 120 px.
        let metresPerPixel = viewport.metresPerPixel()
        if metresPerPixel.isFinite, metresPerPixel > 0 {
            let metres = Self.scaleBarMetres(metresPerPixel: metresPerPixel, maximumPixels: 120)
            let length = metres / metresPerPixel
            let x = 12.0, y = height - 14
            let label = metres >= 1000 ? "\(Int(metres / 1000)) km" : "\(Int(metres)) m"
            let panel = ScreenRect(minX: x - 6, minY: y - 22, maxX: x + length + 8, maxY: y + 8)
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
            items.append(
                .text(
                    label, at: ScreenPoint(x: x + length, y: y - 8),
                    style: TextStyle(size: 10, bold: true, colour: MapStyle.text, anchor: .middle)))
            taken.append(
                panel.union(
                    measure.box(label, at: ScreenPoint(x: x + length, y: y - 8), style: TextStyle(size: 10, bold: true, anchor: .middle))))
        }

        // North arrow, top right.
        let nx = width - 22, ny = 14.0
        let panel = ScreenRect(minX: nx - 13, minY: ny - 6, maxX: nx + 13, maxY: ny + 44)
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
        taken.append(panel)

        if let legend = scene.legend, let rect = drawLegend(legend) { taken.append(rect) }
        return taken
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

    private mutating func drawLegend(_ legend: MapLegend) -> ScreenRect? {
        guard !legend.entries.isEmpty else { return nil }
        let rowHeight = 18.0, padding = 8.0, symbolWidth = 22.0
        var rows: [(String, Bool)] = legend.title.map { [($0, true)] } ?? []
        rows += legend.entries.map { ($0.label, false) }
        let textWidth = rows.map { measure.width($0.0, size: 11, bold: $0.1) + ($0.1 ? 0 : symbolWidth) }.max() ?? 0
        let box = ScreenRect(x: 10, y: 10, width: textWidth + 2 * padding, height: Double(rows.count) * rowHeight + padding)
        items.append(
            .path(
                [corners(box)], closed: true, style: PathStyle(fill: MapStyle.panel, stroke: MapColour.black.withAlpha(0.3), lineWidth: 1),
                role: .decoration))
        var y = box.minY + padding
        if let title = legend.title {
            items.append(
                .text(
                    title, at: ScreenPoint(x: box.minX + padding, y: y + 11), style: TextStyle(size: 11, bold: true, colour: MapStyle.text))
            )
            y += rowHeight
        }
        for entry in legend.entries {
            let centre = ScreenPoint(x: box.minX + padding + 8, y: y + 7)
            switch entry.symbol {
            case .circle(let radius, let fill):
                items.append(
                    .circle(
                        centre: centre, radius: min(radius, 8),
                        style: PathStyle(fill: fill, stroke: MapColour.black.withAlpha(0.4), lineWidth: 0.8), role: .decoration))
            case .line(let colour):
                items.append(
                    .path(
                        [[ScreenPoint(x: centre.x - 8, y: centre.y), ScreenPoint(x: centre.x + 8, y: centre.y)]], closed: false,
                        style: PathStyle(stroke: colour, lineWidth: 3), role: .decoration))
            case .marker(let colour, _):
                items.append(
                    .circle(centre: centre, radius: 5, style: PathStyle(fill: colour, stroke: .white, lineWidth: 1.5), role: .decoration))
            }
            items.append(
                .text(
                    entry.label, at: ScreenPoint(x: box.minX + padding + symbolWidth, y: y + 11),
                    style: TextStyle(size: 11, colour: MapStyle.text)))
            y += rowHeight
        }
        return box
    }

    private func corners(_ rect: ScreenRect) -> [ScreenPoint] {
        [
            ScreenPoint(x: rect.minX, y: rect.minY), ScreenPoint(x: rect.maxX, y: rect.minY),
            ScreenPoint(x: rect.maxX, y: rect.maxY), ScreenPoint(x: rect.minX, y: rect.maxY),
        ]
    }
}
