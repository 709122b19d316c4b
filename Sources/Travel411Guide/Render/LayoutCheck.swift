import Foundation
import Travel411Core

/// What a box on the map holds, for the overlap check and for saying which two things collide.
public enum PlacedKind: String, Hashable, Sendable, CaseIterable {
    case pin, eventMarker = "event marker", userDot = "your dot", arrow = "off-screen arrow"
    case arrowLabel = "off-screen arrow's distance", callout, title, legend, scaleBar = "scale bar"
    case northArrow = "north arrow", credits, regionLabel = "region label", placeLabel = "place label"
    case edgeLabel = "edge label", note
}

/// One thing drawn in the foreground, with the box it covers on screen.
public struct PlacedItem: Hashable, Sendable {
    public var kind: PlacedKind
    /// What it says or stands for, so a problem names it ("title 'exit Cerknica'").
    public var text: String
    public var box: ScreenRect

    public init(kind: PlacedKind, text: String, box: ScreenRect) {
        self.kind = kind
        self.text = text
        self.box = box
    }

    public var description: String { text.isEmpty ? kind.rawValue : "\(kind.rawValue) '\(text)'" }
}

/// The rule the layout promises and tests and Scripts/render-samples check: no two foreground items
/// (pins, event markers, your dot or arrow, callouts, titles, labels, the legend, the scale bar, the
/// north arrow, the credits, notes) overlap, and none is cut by the frame. Lines and areas (the track,
/// circles, the basemap) are background and may run under them.
public enum LayoutCheck {
    /// Boxes may touch: this much overlap on both axes is not counted, so rounding never fails a map.
    public static let tolerance = 0.5

    /// Every overlap and every item outside `frame`, as sentences; empty when the layout keeps the rule.
    public static func problems(_ items: [PlacedItem], frame: ScreenRect) -> [String] {
        var problems: [String] = []
        let loose = frame.insetBy(-tolerance)
        for item in items where !loose.contains(item.box) {
            problems.append("\(item.description) at \(describe(item.box)) is cut by the frame \(describe(frame))")
        }
        for (i, a) in items.enumerated() {
            for b in items[(i + 1)...] where overlap(a.box, b.box) {
                problems.append("\(a.description) at \(describe(a.box)) overlaps \(b.description) at \(describe(b.box))")
            }
        }
        return problems
    }

    static func overlap(_ a: ScreenRect, _ b: ScreenRect) -> Bool {
        min(a.maxX, b.maxX) - max(a.minX, b.minX) > tolerance && min(a.maxY, b.maxY) - max(a.minY, b.minY) > tolerance
    }

    static func describe(_ rect: ScreenRect) -> String {
        func number(_ value: Double) -> String { String(Int(value.rounded())) }
        return "[\(number(rect.minX)),\(number(rect.minY))–\(number(rect.maxX)),\(number(rect.maxY))]"
    }
}
