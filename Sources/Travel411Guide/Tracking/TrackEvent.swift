import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder

/// Where distances in events refer to: a destination's City.
public struct TrackDestination: Hashable, Sendable {
    public var name: String
    public var city: DestinationCity

    public init(name: String, city: DestinationCity) {
        self.name = name
        self.city = city
    }

    public init(_ destination: Destination) { self.init(name: destination.name, city: destination.city) }
}

/// Something the tracker reports: a location update that passed the filters, or a region crossed.
public struct TrackEvent: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case location, enter, exit }

    public var kind: Kind
    public var fix: Fix
    /// Why it fired: "first fix", "moved 512 m (distance filter 500 m)", "entered home: …".
    public var reason: String
    public var destination: TrackDestination
    /// From the fix to the destination's City.
    public var distanceMetres: Double
    public var bearingDegrees: Double
    /// The app's sentence: "You are now 12.3 km from London".
    public var sentence: String
    /// The region crossed (enter and exit only).
    public var region: MonitoredRegion?
    /// The region's message (enter and exit), else the sentence.
    public var message: String
    /// The reverse geocode of the fix, filled in by `TrackEventAnnotator` (nil until then, or without
    /// a places database).
    public var placemark: Placemark?

    public var compassPoint: CompassPoint { CompassPoint(bearing: bearingDegrees) }

    /// "Wells Street, London, United Kingdom": thoroughfare, locality and country where known. Without a
    /// locality the nearest place says where ("United States, 12 km NW of Reno"); at sea, the water.
    public var place: String? {
        guard let placemark else { return nil }
        let locality = placemark.locality ?? placemark.subLocality
        var parts = [placemark.thoroughfare, locality, placemark.country ?? placemark.ocean ?? placemark.inlandWater].compactMap { $0 }
        if locality == nil, let nearest = placemark.nearestLocality { parts.append(nearest.phrase) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

/// Adds each event's placemark from the reverse geocoder `where` uses.
public struct TrackEventAnnotator {
    private let geocoder: ReverseGeocoder

    public init(geocoder: ReverseGeocoder) { self.geocoder = geocoder }

    public func annotate(_ event: TrackEvent) -> TrackEvent {
        var annotated = event
        annotated.placemark = geocoder.placemark(for: event.fix.coordinate)
        return annotated
    }
}
