import Travel411Core

/// What a .prj file says about the coordinate reference system.
enum CoordinateSystemAssessment: Equatable {
    /// Geographic WGS 84: longitude/latitude in degrees, which is what travel411 stores.
    case wgs84
    /// Some other system, named as the file names it (e.g. "British_National_Grid").
    case other(name: String)
    /// Not a coordinate system description (an HTML page saved by mistake, say).
    case unreadable
}

/// Reads .prj text: OGC WKT 1 or 2, or a bare EPSG code.
enum CoordinateSystemCheck {
    static func assess(_ text: String) -> CoordinateSystemAssessment {
        let trimmed = text.trimmed(where: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if isEPSG4326Code(trimmed) { return .wgs84 }
        if trimmed.hasPrefix("+proj=") || trimmed.contains(" +proj=") { return assessPROJString(trimmed) }
        guard let root = WKTParser.parse(trimmed) else { return .unreadable }
        return assess(root)
    }

    private static func assess(_ node: WKTNode) -> CoordinateSystemAssessment {
        let name = node.name ?? node.keyword
        switch node.keyword {
        case "GEOGCS", "GEOGCRS", "GEOGRAPHICCRS", "GEODCRS", "GEODETICCRS":
            if node.hasAuthorityCode("EPSG", "4326") { return .wgs84 }
            let datum = node.child(anyOf: ["DATUM", "GEODETICDATUM", "TRF", "ENSEMBLE"])
            let primeMeridianLongitude = node.child(anyOf: ["PRIMEM", "PRIMEMERIDIAN"])?.numbers.first ?? 0
            guard let datumName = datum?.name, isWGS84Datum(datumName), primeMeridianLongitude == 0 else {
                return .other(name: name)
            }
            return .wgs84
        case "COMPD_CS", "COMPOUNDCRS":
            // The horizontal part decides; a vertical part does not change x and y.
            for child in node.children {
                let assessment = assess(child)
                if assessment != .unreadable { return assessment }
            }
            return .other(name: name)
        case "PROJCS", "PROJCRS", "PROJECTEDCRS", "GEOCCS", "VERT_CS", "VERTCRS", "LOCAL_CS", "ENGCRS",
            "ENGINEERINGCRS", "FITTED_CS", "DERIVEDPROJCRS", "BOUNDCRS":
            return .other(name: name)
        default:
            return .unreadable
        }
    }

    /// "WGS_1984", "D_WGS_1984", "WGS 84", "WGS84", "World Geodetic System 1984" (and its WKT 2 "ensemble").
    private static func isWGS84Datum(_ name: String) -> Bool {
        let compact = name.uppercased().filter { $0.isLetter || $0.isNumber }
        let known = ["WGS1984", "DWGS1984", "WGS84", "WORLDGEODETICSYSTEM1984", "WORLDGEODETICSYSTEM1984ENSEMBLE"]
        return known.contains(compact)
    }

    private static func isEPSG4326Code(_ text: String) -> Bool {
        let compact = text.uppercased().filter { !$0.isWhitespace }
        return [
            "EPSG:4326", "EPSG::4326", "URN:OGC:DEF:CRS:EPSG::4326", "URN:OGC:DEF:CRS:EPSG:6.6:4326",
            "HTTP://WWW.OPENGIS.NET/DEF/CRS/EPSG/0/4326", "OGC:CRS84", "URN:OGC:DEF:CRS:OGC:1.3:CRS84",
        ]
        .contains(compact)
    }

    private static func assessPROJString(_ text: String) -> CoordinateSystemAssessment {
        let parameters = Set(text.split(whereSeparator: \.isWhitespace).map { $0.lowercased() })
        let geographic = parameters.contains("+proj=longlat") || parameters.contains("+proj=latlong")
        let wgs84 = parameters.contains("+datum=wgs84") || parameters.contains("+ellps=wgs84") && !text.contains("+towgs84")
        return geographic && wgs84 ? .wgs84 : .other(name: text)
    }
}

/// One WKT element: `KEYWORD["name", value, …, CHILD[…], …]`.
struct WKTNode {
    var keyword: String
    /// Quoted strings, in order.
    var texts: [String] = []
    /// Unquoted numbers, in order.
    var numbers: [Double] = []
    var children: [WKTNode] = []

    var name: String? { texts.first }

    func child(anyOf keywords: Set<String>) -> WKTNode? {
        children.first { keywords.contains($0.keyword) }
    }

    /// AUTHORITY["EPSG","4326"] (WKT 1) or ID["EPSG",4326] (WKT 2) directly on this node.
    func hasAuthorityCode(_ authority: String, _ code: String) -> Bool {
        children.contains { child in
            guard child.keyword == "AUTHORITY" || child.keyword == "ID",
                child.texts.first?.uppercased() == authority
            else { return false }
            if child.texts.count > 1 { return child.texts[1] == code }
            return child.numbers.first.map { String(Int($0)) } == code
        }
    }
}

/// A small recursive-descent WKT reader: enough structure to find names, datums and authority codes.
struct WKTParser {
    private var characters: [Character]
    private var position = 0

    package static func parse(_ text: String) -> WKTNode? {
        var parser = WKTParser(characters: Array(text))
        guard let node = parser.parseNode(depth: 0) else { return nil }
        parser.skipWhitespace()
        return parser.position == parser.characters.count ? node : nil
    }

    private init(characters: [Character]) { self.characters = characters }

    private mutating func parseNode(depth: Int) -> WKTNode? {
        guard depth < 32 else { return nil }
        skipWhitespace()
        let keyword = readWhile { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !keyword.isEmpty, keyword.first?.isLetter == true else { return nil }
        var node = WKTNode(keyword: keyword.uppercased())
        skipWhitespace()
        guard let open = current, open == "[" || open == "(" else { return nil }
        let close: Character = open == "[" ? "]" : ")"
        position += 1
        while true {
            skipWhitespace()
            guard let next = current else { return nil }
            if next == "\"" {
                guard let text = readQuoted() else { return nil }
                node.texts.append(text)
            } else if next.isLetter {
                // A child element, or a bare enumeration value such as NORTH in AXIS["Lat",NORTH].
                let saved = position
                let word = readWhile { $0.isLetter || $0.isNumber || $0 == "_" }
                skipWhitespace()
                if current == "[" || current == "(" {
                    position = saved
                    guard let child = parseNode(depth: depth + 1) else { return nil }
                    node.children.append(child)
                } else {
                    node.texts.append(word)
                }
            } else {
                let token = readWhile { !$0.isWhitespace && $0 != "," && $0 != close }
                guard let number = Double(token) else { return nil }
                node.numbers.append(number)
            }
            skipWhitespace()
            guard let separator = current else { return nil }
            position += 1
            if separator == close { return node }
            guard separator == "," else { return nil }
        }
    }

    private var current: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipWhitespace() {
        while let character = current, character.isWhitespace { position += 1 }
    }

    private mutating func readWhile(_ predicate: (Character) -> Bool) -> String {
        let start = position
        while let character = current, predicate(character) { position += 1 }
        return String(characters[start..<position])
    }

    /// A double-quoted string; WKT 2 escapes a quote by doubling it.
    private mutating func readQuoted() -> String? {
        position += 1
        var text = ""
        while let character = current {
            position += 1
            if character == "\"" {
                if current == "\"" {
                    text.append("\"")
                    position += 1
                    continue
                }
                return text
            }
            text.append(character)
        }
        return nil
    }
}

private extension String {
    func trimmed(where isTrimmed: (Character) -> Bool) -> String {
        guard let start = firstIndex(where: { !isTrimmed($0) }), let end = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[start...end])
    }
}
