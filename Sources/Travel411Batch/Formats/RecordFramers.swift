/// What a framer found in newly scanned bytes.
struct FramerScan {
    /// Offset just after the last complete record, if one ended in the scanned range.
    var lastBoundary: Int?
    /// Units (lines or features) counted from the scan's start up to `lastBoundary`.
    var unitsToBoundary: Int
    /// Units counted in the whole scanned range.
    var units: Int
}

/// Finds record boundaries in a stream, so that input can be cut into chunks of whole records
/// that workers parse independently. Scanning resumes where the previous call stopped.
protocol RecordFramer {
    mutating func scan(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> FramerScan
    /// True once the input's records are over (GeoJSON: the features array closed).
    var isFinished: Bool { get }
}

/// JSON Lines: records end at line feeds; units are line feeds.
struct LineFramer: RecordFramer {
    var isFinished: Bool { false }

    func scan(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> FramerScan {
        var lastBoundary: Int?
        var lines = 0
        for index in start..<max(start, end) where bytes[index] == UInt8(ascii: "\n") {
            lines &+= 1
            lastBoundary = index &+ 1
        }
        return FramerScan(lastBoundary: lastBoundary, unitsToBoundary: lines, units: lines)
    }
}

/// The elements of a GeoJSON `features` array, scanned from just after its '['. Tracks nesting
/// and strings only; each feature is validated later by the worker that parses it. Units are
/// features.
struct FeatureArrayFramer: RecordFramer {
    private var depth = 0
    private var isInString = false
    private var isEscaped = false
    private(set) var isFinished = false

    mutating func scan(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> FramerScan {
        var result = FramerScan(lastBoundary: nil, unitsToBoundary: 0, units: 0)
        var index = start
        while index < end && !isFinished {
            let byte = bytes[index]
            index &+= 1
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                isInString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth &+= 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 {
                    // The array's own ']' (or a stray '}'): the features are over.
                    isFinished = true
                } else {
                    depth &-= 1
                    if depth == 0 {
                        result.units &+= 1
                        result.unitsToBoundary = result.units
                        result.lastBoundary = index
                    }
                }
            default:
                break
            }
        }
        return result
    }

    /// The end of the element starting at `start`, for skipping one that failed to parse.
    static func elementEnd(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var framer = FeatureArrayFramer()
        var index = start
        while index < end {
            let scan = framer.scan(bytes, from: index, to: index &+ 1)
            index &+= 1
            if scan.lastBoundary != nil || framer.isFinished { return index }
            if framer.depth == 0 && !framer.isInString && bytes[index &- 1] == UInt8(ascii: ",") { return index &- 1 }
        }
        return end
    }
}
