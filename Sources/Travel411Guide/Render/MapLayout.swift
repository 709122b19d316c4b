import Foundation
import Travel411Core
import Travel411Geocoder

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
    static let trackCasing = MapColour(red: 0x5c, green: 0x2b, blue: 0x00, alpha: 0.6)
    static let halo = MapColour.white.withAlpha(0.85)
    static let panel = MapColour.white.withAlpha(0.85)

    /// A pin stands on its point: the head's centre is this far above it.
    static let pinStem = 21.0
    static let pinHeadRadius = 9.0
    static var pinTop: Double { pinStem + pinHeadRadius }
}

/// A scene projected for one output size: every item in pixels, and the numbers the tests check
/// (where each marker ended up, the off-screen arrow, the callout boxes and the shift they asked for,
/// and the box of every foreground item, which `LayoutCheck` finds free of overlaps).
///
/// Everything in the foreground is placed as one problem, in this order, each thing only where
/// nothing placed before it is: the furniture (scale bar, north arrow, credits) in fixed corners; the
/// markers where their points are (spread on a ring only where their symbols would cover each
/// other); your dot or the off-screen arrow; the callouts (the view moves until they fit and clear
/// the furniture); the legend in the first free corner (smaller if it must); then titles, region
/// names, notes and basemap names in what space is left. A title with no free place is left out and
/// named in `omitted`, never drawn over something else.
public struct MapLayout {
    public let viewport: MapViewport
    public internal(set) var items: [DrawItem] = []
    /// Where each marker's point is drawn: its projection, or its place on a ring of coincident markers.
    public internal(set) var markerPoints: [ScreenPoint] = []
    /// Where each marker's own coordinate projects.
    public internal(set) var truePoints: [ScreenPoint] = []
    public internal(set) var offscreen: OffscreenIndicator?
    public internal(set) var calloutBoxes: [ScreenRect] = []
    /// Pixels the drawing was moved (right, down) so that the callouts fit; zero when they did.
    public internal(set) var calloutShift: (dx: Double, dy: Double) = (0, 0)
    /// The zoom (below 1: out) the callouts needed before the shift, on a region the user chose; 1 when none.
    public internal(set) var calloutZoom = 1.0
    /// Letters standing for markers where colour is not available (the terminal under NO_COLOR).
    public internal(set) var glyphs: [(point: ScreenPoint, glyph: Character)] = []
    /// Every foreground item and the box it covers, in the order placed.
    public internal(set) var placed: [PlacedItem] = []
    /// Titles and names that found no free place and are not drawn (the CLI names them on stderr).
    public internal(set) var omitted: [String] = []
    /// The credit lines, as drawn in the corner or, without `drawsCredits`, for the caller to print.
    public internal(set) var creditLines: [String] = []

    /// What `LayoutCheck` finds wrong with this layout: overlaps and items cut by the frame.
    public var problems: [String] { LayoutCheck.problems(placed, frame: viewport.bounds) }

    /// Space kept around the region so that pins and their titles at its edge are not cut off.
    public static let margin = 44.0
    /// The inset rectangle the off-screen arrow stays within, this far from the edges.
    public static let arrowInset = 30.0

    let measure: TextMeasure
    var placer: LabelPlacer
    let drawsCredits: Bool

    /// Projects `scene` for `width`×`height` pixels. `basemap`, when given, reads the basemap for
    /// the final view (after any callout shift); otherwise the scene's own basemap is drawn.
    /// Without `drawsCredits` (the terminal, which prints them under the map) the credits are only
    /// listed in `creditLines`.
    public init(
        scene: MapScene, width: Double, height: Double, measure: TextMeasure = TextMeasure(), drawsCredits: Bool = true,
        basemap source: ((MapViewport) throws -> Basemap)? = nil
    ) rethrows {
        self.measure = measure
        self.drawsCredits = drawsCredits
        var viewport = MapViewport.fitting(scene.region, width: width, height: height, margin: Self.margin)
        if scene.fitsMarkers { viewport = Self.fittingMarkers(scene, in: viewport, measure: measure) }
        var basemap = try source?(viewport) ?? scene.basemap
        // The callouts decide the final view: move it just enough that every one fits and clears the furniture,
        // after zooming out if they and their pins cannot all fit at this scale.
        let area = viewport.bounds.insetBy(Self.calloutArea)
        if !Self.calloutsFit(scene, viewport, area: area, measure: measure) {
            var callouts = scene
            callouts.markers = scene.callouts.filter { scene.markers.indices.contains($0) }.map { scene.markers[$0] }
            callouts.callouts = Array(callouts.markers.indices)
            callouts.me = nil
            let zoomed = Self.fittingMarkers(callouts, in: viewport, measure: measure)
            if zoomed.pixelsPerDegree < viewport.pixelsPerDegree {
                calloutZoom = zoomed.pixelsPerDegree / viewport.pixelsPerDegree
                viewport = MapViewport(width: width, height: height, centre: viewport.centre, pixelsPerDegree: zoomed.pixelsPerDegree)
            }
        }
        if !scene.callouts.isEmpty {
            let credits =
                drawsCredits ? Self.wrappedCredits(basemap.attribution + scene.attributionLines, width: width, measure: measure) : []
            let keepOut = Self.furnitureKeepOut(width: width, height: height, credits: credits, measure: measure)
            let shift = Self.calloutMove(scene, viewport, area: area, keepOut: keepOut, measure: measure)
            if shift.dx != 0 || shift.dy != 0 {
                viewport = viewport.moved(dx: shift.dx, dy: shift.dy)
                calloutShift = shift
                basemap = try source?(viewport) ?? basemap
            }
        }
        self.viewport = viewport
        placer = LabelPlacer(area: viewport.bounds.insetBy(2))
        build(scene, basemap: basemap)
    }

    /// The move that brings every callout and its pin inside `area` and clear of `keepOut` (the furniture):
    /// a few rounds, since a callout held against the edge centres itself over its pin again once the map moves.
    static func calloutMove(_ scene: MapScene, _ start: MapViewport, area: ScreenRect, keepOut: [ScreenRect], measure: TextMeasure) -> (
        dx: Double, dy: Double
    ) {
        var viewport = start
        var total = (dx: 0.0, dy: 0.0)
        for _ in 0..<3 {
            let points = spread(scene, viewport).drawn
            var boxes = calloutBoxes(scene, points, within: area, measure: measure)
            guard !boxes.isEmpty else { break }
            // The pins with callouts must stay in view too.
            boxes += scene.callouts.filter { scene.markers.indices.contains($0) }.map { iconBox(scene.markers[$0].symbol, at: points[$0]) }
            let shift = CalloutFit.shift(for: boxes, within: area, avoiding: keepOut)
            guard shift.dx != 0 || shift.dy != 0 else { break }
            viewport = viewport.moved(dx: shift.dx, dy: shift.dy)
            total = (total.dx + shift.dx, total.dy + shift.dy)
        }
        return total
    }

    /// Whether the callouts and their markers, together, are no wider and no taller than `area`: then a
    /// move alone can bring them all in.
    static func calloutsFit(_ scene: MapScene, _ viewport: MapViewport, area: ScreenRect, measure: TextMeasure) -> Bool {
        let points = spread(scene, viewport).drawn
        let indexes = scene.callouts.filter { scene.markers.indices.contains($0) }
        let boxes =
            calloutBoxes(scene, points, within: area, measure: measure) + indexes.map { iconBox(scene.markers[$0].symbol, at: points[$0]) }
        guard let first = boxes.first else { return true }
        let union = boxes.dropFirst().reduce(first) { $0.union($1) }
        return union.width <= area.width && union.height <= area.height
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
        let spread = spread(scene, viewport)
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

    // MARK: - Building the drawing

    private mutating func build(_ scene: MapScene, basemap: Basemap) {
        let clip = viewport.bounds.insetBy(-20)
        items.append(.path([corners(viewport.bounds)], closed: true, style: PathStyle(fill: MapStyle.sea), role: .background))
        drawBasemap(basemap, clip: clip)
        for circle in scene.circles { drawCircle(circle) }
        for polyline in scene.polylines { drawPolyline(polyline, clip: clip) }

        // Fixed furniture first, so that nothing is set under it.
        drawFurniture(credits: basemap.attribution + scene.attributionLines)

        let spread = Self.spread(scene, viewport)
        markerPoints = spread.drawn
        truePoints = spread.truePoints
        drawLeaders(spread)
        for (index, marker) in scene.markers.enumerated() { drawMarker(marker, at: markerPoints[index]) }
        drawMe(scene, inRing: spread.meInRing)

        let calloutIndexes = scene.callouts.filter { scene.markers.indices.contains($0) && !Self.calloutLines(scene.markers[$0]).isEmpty }
        calloutBoxes = Self.calloutBoxes(scene, markerPoints, within: viewport.bounds.insetBy(Self.calloutArea), measure: measure)
        for (offset, index) in calloutIndexes.enumerated() where calloutBoxes.indices.contains(offset) {
            // Above the marker; below it when above covers something placed already and below does not.
            let above = calloutBoxes[offset]
            let below = above.offsetBy(dx: 0, dy: markerPoints[index].y + Self.calloutGap - above.minY)
            let isBelow = !placer.isFree(above) && placer.isFree(below)
            calloutBoxes[offset] = isBelow ? below : above
            record(.callout, scene.markers[index].title ?? "", calloutBoxes[offset])
            drawCallout(
                Self.calloutLines(scene.markers[index]), box: calloutBoxes[offset], anchor: markerPoints[index],
                symbol: scene.markers[index].symbol, below: isBelow)
        }
        if let legend = scene.legend { drawLegend(legend) }

        for (index, marker) in scene.markers.enumerated() where !scene.callouts.contains(index) {
            placeMarkerTitle(marker, at: markerPoints[index], ringCentre: spread.centres[index])
        }
        for circle in scene.circles { placeCircleLabel(circle) }
        placeNearbyPlaces(basemap.nearby)
        placeNotes(basemap.notes)
        placeBasemapLabels(basemap.labels, besides: Set(scene.markers.compactMap(\.title)))
        items.append(
            .path(
                [corners(viewport.bounds.insetBy(0.5))], closed: true, style: PathStyle(stroke: MapStyle.frame, lineWidth: 1),
                role: .decoration))
    }

    /// Reserves `box` and lists it for the overlap check.
    mutating func record(_ kind: PlacedKind, _ text: String, _ box: ScreenRect) {
        placer.reserve(box)
        placed.append(PlacedItem(kind: kind, text: text, box: box))
    }

    /// The first of `candidates` that is free and inside the map, recorded; nil (and nothing recorded) when none is.
    mutating func placeFirstFree(_ kind: PlacedKind, _ text: String, _ candidates: [ScreenRect]) -> Int? {
        guard let index = candidates.firstIndex(where: { placer.isFree($0) }) else { return nil }
        record(kind, text, candidates[index])
        return index
    }

    /// The track: a dark casing under the line, both wider on a close view, so it reads on land and sea.
    private mutating func drawPolyline(_ polyline: MapPolyline, clip: ScreenRect) {
        let parts = ScreenGeometry.clippedLine(ScreenGeometry.thinned(viewport.project(polyline.coordinates)), to: clip)
        guard !parts.isEmpty else { return }
        let width = Self.trackWidth(polyline.width, metresPerPixel: viewport.metresPerPixel())
        items.append(
            .path(parts, closed: false, style: PathStyle(stroke: MapColour.white.withAlpha(0.9), lineWidth: width + 5), role: .overlay))
        items.append(.path(parts, closed: false, style: PathStyle(stroke: MapStyle.trackCasing, lineWidth: width + 2.5), role: .overlay))
        items.append(
            .path(
                parts, closed: false, style: PathStyle(stroke: polyline.colour, lineWidth: width, dash: polyline.dashed ? [6, 4] : []),
                role: .overlay))
    }

    /// A line's width on screen: its own at a country's scale, up to twice that on a town or street map,
    /// where a 3-pixel line is lost among the streets.
    static func trackWidth(_ width: Double, metresPerPixel: Double) -> Double {
        if metresPerPixel <= 20 { return width * 2 }
        if metresPerPixel <= 200 { return width * 1.5 }
        return width
    }

    func corners(_ rect: ScreenRect) -> [ScreenPoint] {
        [
            ScreenPoint(x: rect.minX, y: rect.minY), ScreenPoint(x: rect.maxX, y: rect.minY),
            ScreenPoint(x: rect.maxX, y: rect.maxY), ScreenPoint(x: rect.minX, y: rect.maxY),
        ]
    }
}
