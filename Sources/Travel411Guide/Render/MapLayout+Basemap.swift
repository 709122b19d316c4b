import Foundation
import Travel411Core
import Travel411Geocoder

/// The basemap under everything, circles, and the names set in the space the foreground leaves.
extension MapLayout {
    mutating func drawBasemap(_ basemap: Basemap, clip: ScreenRect) {
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

    /// The least radius a circle with a marked centre (a monitored region) is drawn with, so that a
    /// 150 m region on a map of 100 m per pixel is still seen.
    static let leastMarkedCircleRadius = 5.0

    func circleRadius(_ circle: MapCircle) -> Double {
        let centre = viewport.project(circle.centre)
        switch circle.radius {
        case .pixels(let pixels): return pixels
        case .metres(let metres):
            let north = viewport.project(GreatCircle.destination(from: circle.centre, distance: metres, bearing: 0))
            return max(circle.marksCentre ? Self.leastMarkedCircleRadius : 1, abs(centre.y - north.y))
        }
    }

    mutating func drawCircle(_ circle: MapCircle) {
        let centre = viewport.project(circle.centre)
        let radius = circleRadius(circle)
        guard viewport.bounds.insetBy(-radius).contains(centre) else { return }
        items.append(
            .circle(
                centre: centre, radius: max(1, radius), style: PathStyle(fill: circle.fill, stroke: circle.stroke, lineWidth: 1.5),
                role: .overlay))
        if circle.marksCentre {
            let arm = 4.0
            items.append(
                .path(
                    [
                        [ScreenPoint(x: centre.x - arm, y: centre.y), ScreenPoint(x: centre.x + arm, y: centre.y)],
                        [ScreenPoint(x: centre.x, y: centre.y - arm), ScreenPoint(x: centre.x, y: centre.y + arm)],
                    ], closed: false, style: PathStyle(stroke: circle.stroke ?? MapStyle.text, lineWidth: 1.5), role: .overlay))
        }
    }

    /// A circle's name beside it: below, above, right or left, the first that is free.
    mutating func placeCircleLabel(_ circle: MapCircle) {
        guard let label = circle.label else { return }
        let centre = viewport.project(circle.centre)
        guard viewport.bounds.contains(centre) else { return }
        let radius = circleRadius(circle) + 3
        let style = TextStyle(size: 11, italic: true, colour: MapStyle.text, halo: MapStyle.halo, anchor: .middle)
        var start = style, end = style
        start.anchor = .start
        end.anchor = .end
        let candidates: [(ScreenPoint, TextStyle)] = [
            (ScreenPoint(x: centre.x, y: centre.y + radius + 11), style),
            (ScreenPoint(x: centre.x, y: centre.y - radius - 4), style),
            (ScreenPoint(x: centre.x + radius + 2, y: centre.y + 4), start),
            (ScreenPoint(x: centre.x - radius - 2, y: centre.y + 4), end),
            (ScreenPoint(x: centre.x + radius, y: centre.y + radius + 11), start),
            (ScreenPoint(x: centre.x - radius, y: centre.y + radius + 11), end),
        ]
        let boxes = candidates.map { measure.box(label, at: $0.0, style: $0.1, padding: 1) }
        guard let chosen = placeFirstFree(.regionLabel, label, boxes) else {
            omitted.append(label)
            return
        }
        items.append(.text(label, at: candidates[chosen].0, style: candidates[chosen].1))
    }

    // MARK: - What the map says about itself

    /// Notes (such as "no street data here") in a panel at the top, else the bottom, else the middle.
    mutating func placeNotes(_ notes: [String]) {
        guard !notes.isEmpty else { return }
        let size = 11.0, lineHeight = 14.0
        let width = (notes.map { measure.width($0, size: size) }.max() ?? 0) + 16
        let height = Double(notes.count) * lineHeight + 8
        let frame = viewport.bounds
        let left = (frame.width - width) / 2
        let boxes = [
            ScreenRect(x: left, y: 10, width: width, height: height),
            ScreenRect(x: left, y: frame.maxY - 46 - height, width: width, height: height),
            ScreenRect(x: left, y: (frame.height - height) / 2 - 40, width: width, height: height),
        ].map(clampedInside)
        guard let chosen = placeFirstFree(.note, notes.joined(separator: " "), boxes) else {
            omitted += notes
            return
        }
        let box = boxes[chosen]
        items.append(
            .path(
                [corners(box)], closed: true, style: PathStyle(fill: MapStyle.panel, stroke: MapColour.black.withAlpha(0.3), lineWidth: 1),
                role: .decoration))
        for (index, note) in notes.enumerated() {
            items.append(
                .text(
                    note, at: ScreenPoint(x: box.minX + 8, y: box.minY + 4 + size + Double(index) * lineHeight),
                    style: TextStyle(size: size, italic: true, colour: MapStyle.text)))
        }
    }

    /// Places out of view, each named at the edge it lies beyond, with its distance from the map's
    /// centre and an arrow towards it.
    mutating func placeNearbyPlaces(_ places: [BasemapLabel]) {
        let style = TextStyle(size: 11, bold: true, colour: MapStyle.mutedText, halo: MapStyle.halo, anchor: .middle)
        for place in places {
            let point = viewport.project(place.coordinate)
            guard
                let edge = OffscreenIndicator.pointing(
                    from: viewport.centrePoint, to: point, inset: viewport.bounds.insetBy(Self.arrowInset))
            else { continue }
            let metres = GreatCircle.distance(from: viewport.centre, to: place.coordinate)
            let text = "\(place.text) \(DistanceFormatter.humanReadable(metres: metres)) \(Self.arrowGlyph(edge.angle))"
            var candidates: [ScreenRect] = []
            for slide in [0.0, 1, -1, 2, -2, 3, -3, 4, -4] {
                let along = slide * 16
                let at = ScreenPoint(x: edge.tip.x - sin(edge.angle) * along, y: edge.tip.y + cos(edge.angle) * along + 4)
                candidates.append(clampedInside(measure.box(text, at: at, style: style, padding: 2)))
            }
            guard let chosen = placeFirstFree(.edgeLabel, text, candidates) else {
                omitted.append(text)
                continue
            }
            let box = candidates[chosen]
            items.append(.text(text, at: ScreenPoint(x: box.centre.x, y: box.maxY - 2 - 11 * 0.25), style: style))
        }
    }

    // MARK: - Basemap names

    /// Pixels across (the square root of its box's area on screen) that a country needs to be named.
    static let smallestNamedCountry = 10.0

    mutating func placeBasemapLabels(_ labels: [BasemapLabel], besides markerTitles: Set<String>) {
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
                    guard placeLocality(label, at: point, withDot: showsDots) else { continue }
                    placedNames.insert(label.text)
                    localityCount += 1
                case .street:
                    placeStreetName(label)
                }
            }
        }
    }

    private mutating func placeLocality(_ label: BasemapLabel, at point: ScreenPoint, withDot: Bool) -> Bool {
        let size = label.rank >= 1_000_000 ? 13.0 : label.rank >= 100_000 ? 12.0 : 11
        let style = TextStyle(
            size: size, bold: label.rank >= 1_000_000, colour: MapStyle.text, halo: MapStyle.halo, anchor: withDot ? .start : .middle)
        guard withDot else { return place(label.text, at: ScreenPoint(x: point.x, y: point.y + 4), style: style) }
        let dot = ScreenRect(minX: point.x - 3, minY: point.y - 3, maxX: point.x + 3, maxY: point.y + 3)
        let at = ScreenPoint(x: point.x + 5, y: point.y + 4)
        let box = measure.box(label.text, at: at, style: style, padding: 1)
        guard placer.isFree(dot), placer.isFree(box) else { return false }
        record(.placeLabel, label.text, dot.union(box))
        items.append(
            .circle(centre: point, radius: 2.5, style: PathStyle(fill: MapStyle.text, stroke: .white, lineWidth: 1), role: .overlay))
        items.append(.text(label.text, at: at, style: style))
        return true
    }

    private mutating func placeStreetName(_ label: BasemapLabel) {
        guard let (from, to) = label.along else { return }
        let a = viewport.project(from), b = viewport.project(to)
        var angle = atan2(b.y - a.y, b.x - a.x)
        if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
        let style = TextStyle(size: 10, colour: MapStyle.mutedText, halo: MapStyle.halo, anchor: .middle, rotation: angle)
        let width = measure.width(label.text, size: 10)
        guard hypot(b.x - a.x, b.y - a.y) >= width + 6 else { return }
        let mid = ScreenPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
        // The box of the rotated text, upright.
        let (c, s) = (abs(cos(angle)), abs(sin(angle)))
        let halfW = (width * c + 10 * s) / 2 + 1, halfH = (width * s + 10 * c) / 2 + 1
        let box = ScreenRect(minX: mid.x - halfW, minY: mid.y - halfH, maxX: mid.x + halfW, maxY: mid.y + halfH)
        guard placeFirstFree(.placeLabel, label.text, [box]) != nil else { return }
        items.append(.text(label.text, at: ScreenPoint(x: mid.x + sin(angle) * 3.5, y: mid.y + cos(angle) * 3.5), style: style))
    }

    @discardableResult
    private mutating func place(_ text: String, at point: ScreenPoint, style: TextStyle) -> Bool {
        guard placeFirstFree(.placeLabel, text, [measure.box(text, at: point, style: style, padding: 2)]) != nil else { return false }
        items.append(.text(text, at: point, style: style))
        return true
    }
}
