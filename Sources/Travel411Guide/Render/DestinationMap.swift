import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// Which pins get a callout.
public enum CalloutChoice: String, Sendable, CaseIterable {
    case city, airport, all, none
}

/// A pin the user added: a point and an optional title.
public struct ExtraPin: Hashable, Sendable {
    public var coordinate: Coordinate
    public var title: String?

    public init(coordinate: Coordinate, title: String?) {
        self.coordinate = coordinate
        self.title = title
    }

    /// "LAT,LON" or "LAT,LON,TITLE" (the title may hold commas).
    public init(parsing text: String) throws {
        let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2 else {
            throw MapRenderError(
                "a pin is LAT,LON or LAT,LON,TITLE, e.g. 51.5014,-0.1419,Buckingham Palace; got '\(DisplayText.sanitized(text))'",
                exitStatus: .usage)
        }
        do {
            coordinate = try Coordinate(parsingLatitude: parts[0], longitude: parts[1])
        } catch {
            throw MapRenderError("pin '\(DisplayText.sanitized(text))': \(error.localizedDescription)", exitStatus: .usage)
        }
        title = parts.count == 3 && !parts[2].isEmpty ? parts[2] : nil
    }
}

/// The region a user typed: "LAT,LON,LATSPAN,LONSPAN", a centre and spans in degrees as `region` prints them.
public enum RegionArgument {
    public static func parse(_ text: String) throws -> MapRegion {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let example = "e.g. 51.49,-0.29,0.05,0.35"
        guard parts.count == 4 else {
            throw MapRenderError(
                "--region is auto or LAT,LON,LATSPAN,LONSPAN (\(example)); got '\(DisplayText.sanitized(text))'", exitStatus: .usage)
        }
        let centre: Coordinate
        do {
            centre = try Coordinate(parsingLatitude: parts[0], longitude: parts[1])
        } catch {
            throw MapRenderError("--region centre: \(error.localizedDescription)", exitStatus: .usage)
        }
        guard let latSpan = Double(parts[2]), let lonSpan = Double(parts[3]), latSpan.isFinite, lonSpan.isFinite else {
            throw MapRenderError(
                "--region spans must be numbers of degrees (\(example)); got '\(DisplayText.sanitized(parts[2]))' and '\(DisplayText.sanitized(parts[3]))'",
                exitStatus: .usage)
        }
        guard latSpan > 0, lonSpan > 0 else {
            throw MapRenderError(
                "--region spans must be greater than 0; got \(parts[2])° latitude × \(parts[3])° longitude", exitStatus: .usage)
        }
        guard latSpan <= 180, lonSpan <= 360 else {
            throw MapRenderError(
                "--region spans are at most 180° of latitude and 360° of longitude; got \(parts[2])° × \(parts[3])°", exitStatus: .usage)
        }
        return MapRegion(center: centre, latitudeDelta: latSpan, longitudeDelta: lonSpan)
    }
}

/// The scene of a destination: its airport (green) and city (red) pins, added pins, the user's
/// location, a track, and callouts with each pin's reverse-geocoded place and distance.
public struct DestinationMap {
    public var destination: Destination
    public var extraPins: [ExtraPin] = []
    public var me: Coordinate?
    public var callouts: CalloutChoice = .none
    /// A region the user chose; nil fits the pins with `travel411 region`'s rule.
    public var region: MapRegion?
    /// A track to draw as a line, with its events (enter, exit…) marked.
    public var track: [Coordinate] = []
    /// The GPX segment of each point of `track` (empty: one line); a new segment starts a new line, so the
    /// gap between two recordings is not drawn as if it were walked.
    public var trackSegments: [Int] = []
    public var trackEvents: [(coordinate: Coordinate, title: String)] = []
    /// Monitored regions to draw: a circle with its centre marked and its name.
    public var regions: [MonitoredRegion] = []

    public init(destination: Destination) { self.destination = destination }

    /// The scene; `placemark` reverse-geocodes a pin for its callout (only called for pins with one).
    public func scene(placemark: (Coordinate) throws -> Placemark?) throws -> MapScene {
        var markers: [MapMarker] = destination.pins.map { pin in
            MapMarker(
                coordinate: pin.coordinate, title: pin.title, colour: MapColour(pin.colour), symbol: .pin,
                glyph: pin.kind == .airport ? "A" : "C")
        }
        markers += extraPins.map { MapMarker(coordinate: $0.coordinate, title: $0.title, colour: .pinPurple, symbol: .pin, glyph: "+") }
        markers += trackEvents.map {
            MapMarker(coordinate: $0.coordinate, title: $0.title, colour: .trackOrange, symbol: .square, glyph: "#")
        }

        var calloutIndexes: [Int] = []
        switch callouts {
        case .city: calloutIndexes = [1]
        case .airport: calloutIndexes = [0]
        case .all: calloutIndexes = Array(0..<(2 + extraPins.count))
        case .none: break
        }
        for index in calloutIndexes {
            var lines: [String] = []
            if let place = try placemark(markers[index].coordinate) {
                lines += Self.placeLines(place).filter { $0 != markers[index].title }
            }
            if let me {
                lines.append(
                    "\(DistanceFormatter.humanReadable(metres: GreatCircle.distance(from: me, to: markers[index].coordinate))) from you")
            }
            markers[index].calloutLines = lines
            if markers[index].title == nil { markers[index].title = "Pin" }
        }

        let fitted = MapRegion.fitting(markers.map(\.coordinate) + track)
        let region = self.region ?? fitted ?? MapRegion(center: destination.city.coordinate, latitudeDelta: 0.1, longitudeDelta: 0.1)
        var scene = MapScene(region: region, markers: markers, callouts: calloutIndexes, me: me)
        scene.fitsMarkers = self.region == nil
        scene.polylines = trackLines().map { MapPolyline(coordinates: $0) }
        scene.circles = regions.map { region in
            MapCircle(
                centre: region.center, radius: .metres(region.radiusMetres), fill: MapColour.regionTeal.withAlpha(0.15),
                stroke: .regionTeal, label: "\(region.name) (\(DistanceFormatter.humanReadable(metres: region.radiusMetres)))",
                marksCentre: true)
        }
        if !track.isEmpty || !extraPins.isEmpty || me != nil || !regions.isEmpty {
            var entries: [MapLegend.Entry] = [
                .init(symbol: .marker(.airportGreen, .pin), label: "Airport"),
                .init(symbol: .marker(.cityRed, .pin), label: "City"),
            ]
            if !extraPins.isEmpty { entries.append(.init(symbol: .marker(.pinPurple, .pin), label: "Pin")) }
            if me != nil { entries.append(.init(symbol: .marker(.userBlue, .dot), label: "You")) }
            if track.count > 1 { entries.append(.init(symbol: .line(.trackOrange), label: "Track")) }
            if !trackEvents.isEmpty { entries.append(.init(symbol: .marker(.trackOrange, .square), label: "Region enter or exit")) }
            if !regions.isEmpty {
                entries.append(.init(symbol: .circle(radius: 6, fill: MapColour.regionTeal.withAlpha(0.4)), label: "Monitored region"))
            }
            scene.legend = MapLegend(title: destination.name, entries: entries)
        }
        return scene
    }

    /// The track cut where its segment changes; lines of one point are left out.
    func trackLines() -> [[Coordinate]] {
        guard trackSegments.count == track.count else { return track.count > 1 ? [track] : [] }
        var lines: [[Coordinate]] = []
        for (index, coordinate) in track.enumerated() {
            if index == 0 || trackSegments[index] != trackSegments[index - 1] { lines.append([]) }
            lines[lines.count - 1].append(coordinate)
        }
        return lines.filter { $0.count > 1 }
    }

    /// A placemark as callout lines: street; district and locality; area and country.
    static func placeLines(_ place: Placemark) -> [String] {
        func joined(_ parts: [String?], _ separator: String) -> String? {
            var seen: [String] = []
            for part in parts.compactMap({ $0?.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty && !seen.contains(part) {
                seen.append(part)
            }
            return seen.isEmpty ? nil : seen.joined(separator: separator)
        }
        let lines = [
            joined([place.subThoroughfare, place.thoroughfare], " "),
            joined([place.subLocality, place.locality, place.postalCode], ", "),
            joined([place.subAdministrativeArea, place.administrativeArea, place.country], ", "),
            place.country == nil ? joined([place.ocean, place.inlandWater], ", ") : nil,
        ].compactMap { $0 }
        if lines.isEmpty, let nearest = place.nearestLocality { return [nearest.phrase] }
        return lines
    }
}
