import Foundation
import Travel411OSMReader
import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The backends on the real places database: well-formed SVG with the pins where the projection puts
/// them, a PNG, and the terminal with and without colour.
final class MapOutputTests: XCTestCase {
    let airport = Coordinate(latitude: 51.471184, longitude: -0.452542)
    let city = Coordinate(latitude: 51.500153, longitude: -0.126236)

    func londonScene() throws -> MapScene {
        let region = try XCTUnwrap(MapRegion.fitting([airport, city]))
        return MapScene(
            region: region,
            markers: [
                MapMarker(coordinate: airport, title: "London Heathrow Airport", colour: .airportGreen, glyph: "A"),
                MapMarker(coordinate: city, title: "London & <Westminster>", colour: .cityRed, glyph: "C"),
            ])
    }

    /// Collects the path data of each fill colour and every text.
    final class SVGCollector: NSObject, XMLParserDelegate {
        var paths: [(fill: String?, d: String)] = []
        var texts: [String] = []
        private var inText = false
        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if element == "path", let d = attributes["d"] { paths.append((attributes["fill"], d)) }
            if element == "text" {
                inText = true
                texts.append("")
            }
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { if inText { texts[texts.count - 1] += string } }
        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "text" { inText = false }
        }
    }

    func testTheSVGIsWellFormedAndEachPinStandsOnItsProjectedPoint() throws {
        let layout = try MapRenderer.layout(
            try londonScene(), width: 1024, height: 768, basemap: try BasemapLoader(path: TestPlaces.databasePath))
        let svg = MapRenderer.svg(layout)
        let collector = SVGCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "SVG does not parse: \(String(describing: parser.parserError))")
        XCTAssertTrue(collector.texts.contains("London & <Westminster>"), "titles stay text")
        XCTAssertTrue(collector.texts.contains("London Heathrow Airport"))
        for (coordinate, colour) in [(airport, MapColour.airportGreen), (city, MapColour.cityRed)] {
            // The projection formula, worked out here from the viewport's centre and scale.
            let v = layout.viewport
            let mercator = { (lat: Double) in log(tan(Double.pi / 4 + lat * Double.pi / 360)) * 180 / Double.pi }
            let x = v.width / 2 + (coordinate.longitude - v.centre.longitude) * v.pixelsPerDegree
            let y = v.height / 2 - (mercator(coordinate.latitude) - mercator(v.centre.latitude)) * v.pixelsPerDegree
            let pin = try XCTUnwrap(collector.paths.first { $0.fill == colour.hex }, "no \(colour.hex) pin")
            let start = pin.d.dropFirst().split(separator: "L")[0].split(separator: " ").compactMap { Double($0) }
            XCTAssertEqual(start.count, 2)
            XCTAssertEqual(start[0], x, accuracy: 1, "pin x")
            XCTAssertEqual(start[1], y, accuracy: 1, "pin y")
            XCTAssertTrue(v.bounds.contains(ScreenPoint(x: x, y: y)))
        }
        XCTAssertTrue(svg.contains("Made with Natural Earth"), "the attribution line is drawn")
        XCTAssertEqual(svg.components(separatedBy: "Made with Natural Earth").count, 2, "once")
    }

    /// A database imported from an extract alone names its tables after the extract; its map still credits
    /// OpenStreetMap, as the licence (ODbL) asks, from what the import recorded of each layer.
    func testAMapOfAnExtractCreditsOpenStreetMap() throws {
        let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/osm/liechtenstein-2013-08-03.osm.pbf")
        let database = try ProcessScratch.path("map-attribution/liechtenstein.gpkg")
        _ = try Importer(options: ImportOptions(paths: [extract], databasePath: database, extractReader: .libosmium)).run()
        let vaduz = Coordinate(latitude: 47.13948, longitude: 9.52215)
        let scene = MapScene(
            region: MapRegion(center: vaduz, latitudeDelta: 0.02, longitudeDelta: 0.03),
            markers: [MapMarker(coordinate: vaduz, title: "Kunstmuseum", colour: .cityRed, glyph: "C")])
        let layout = try MapRenderer.layout(scene, width: 1024, height: 768, basemap: try BasemapLoader(path: database))
        let svg = MapRenderer.svg(layout)
        XCTAssertTrue(svg.contains("© OpenStreetMap contributors"), "no OpenStreetMap credit")
        XCTAssertTrue(svg.contains("Made with Natural Earth"), "the countries an extract import adds are Natural Earth's")
    }

    /// A town 5 km across (Vaduz on a 1024-pixel map, about 10 m per pixel) shows its streets, as a web map
    /// does at its zoom 13; the whole country (about 30 m per pixel) only its outlines and names.
    func testAMapOfATownShowsItsStreetsAndOneOfTheCountryDoesNot() throws {
        let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/osm/liechtenstein-2013-08-03.osm.pbf")
        let database = try ProcessScratch.path("map-streets/liechtenstein.gpkg")
        _ = try Importer(options: ImportOptions(paths: [extract], databasePath: database, extractReader: .libosmium)).run()
        let loader = try BasemapLoader(path: database)
        let vaduz = Coordinate(latitude: 47.14, longitude: 9.52)
        func streetLines(latitudeDelta: Double, longitudeDelta: Double) throws -> (lines: Int, metresPerPixel: Double) {
            let region = MapRegion(center: vaduz, latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
            let viewport = MapViewport.fitting(region, width: 1024, height: 768, margin: MapLayout.margin)
            let streets = try loader.load(for: viewport).layers.filter { $0.kind == .street }
            return (streets.reduce(0) { $0 + $1.shapes.count }, viewport.metresPerPixel())
        }
        let town = try streetLines(latitudeDelta: 0.05, longitudeDelta: 0.07)
        XCTAssertGreaterThan(town.metresPerPixel, 8, "the view is wider than the old limit")
        XCTAssertGreaterThan(town.lines, 500, "Vaduz and Schaan's streets at \(town.metresPerPixel) m per pixel")
        let country = try streetLines(latitudeDelta: 0.22, longitudeDelta: 0.3)
        XCTAssertEqual(country.lines, 0, "no streets at \(country.metresPerPixel) m per pixel")
    }

    func testTheLondonMapReadsOnlyTheBasemapItShowsAndRendersFast() throws {
        let loader = try BasemapLoader(path: TestPlaces.databasePath)
        let started = Date()
        let layout = try MapRenderer.layout(try londonScene(), width: 1024, height: 768, basemap: loader)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("london.png")
        try MapRenderer.write(layout, as: .png, to: png)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5, "a London map must render in well under a second")
        let bytes = try Data(contentsOf: png)
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["london.png"], "no temporary file left")
        let pdf = folder.appendingPathComponent("london.pdf")
        try MapRenderer.write(layout, as: .pdf, to: pdf)
        XCTAssertEqual(String(decoding: try Data(contentsOf: pdf).prefix(5), as: UTF8.self), "%PDF-")
    }

    /// France's polygon holds Mayotte, Réunion and the rest as areas of their own, under the same fid: the
    /// country's label is still France, at France (a world map once said "Mayotte" over Paris).
    func testACountryWithOverseasPartsIsLabelledWithItsOwnName() throws {
        let europe = try XCTUnwrap(
            MapRegion.fitting([Coordinate(latitude: 36, longitude: -10), Coordinate(latitude: 71, longitude: 30)]))
        let viewport = MapViewport.fitting(europe, width: 1024, height: 768, margin: 0)
        let labels = try BasemapLoader(path: TestPlaces.databasePath).load(for: viewport).labels.filter { $0.kind == .country }
        let names = Set(labels.map(\.text))
        for country in ["France", "Norway", "Netherlands"] { XCTAssertTrue(names.contains(country), "\(country) in \(names.sorted())") }
        for part in ["Mayotte", "Réunion", "Svalbard & Jan Mayen", "Caribbean NL"] {
            XCTAssertFalse(names.contains(part), "\(part) is not a label in Europe: \(names.sorted())")
        }
        let france = try XCTUnwrap(labels.first { $0.text == "France" })
        XCTAssertEqual(france.coordinate.latitude, 46.5, accuracy: 2.5, "France's label point is in France")
        XCTAssertEqual(france.coordinate.longitude, 2.5, accuracy: 3)
    }

    /// The texts of a map of `corners` with nothing on it but the basemap.
    func basemapTexts(_ corners: [Coordinate]) throws -> [String] {
        let region = try XCTUnwrap(MapRegion.fitting(corners))
        let layout = try MapRenderer.layout(
            MapScene(region: region, markers: []), width: 1280, height: 800, basemap: try BasemapLoader(path: TestPlaces.databasePath))
        let collector = SVGCollector()
        let parser = XMLParser(data: Data(MapRenderer.svg(layout).utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse())
        return collector.texts
    }

    /// On a world map a country a few pixels wide is not named, or its name lands on a bigger neighbour
    /// whose label did not fit (a quake map once said "Vatican" over Italy, "Grenada" over Venezuela);
    /// zoomed in, it is.
    func testTinyCountriesAreNamedOnlyWhenTheMapShowsThemBigEnough() throws {
        let world = try basemapTexts([Coordinate(latitude: -55, longitude: -179), Coordinate(latitude: 75, longitude: 179)])
        for big in ["Brazil", "Australia", "Canada"] { XCTAssertTrue(world.contains(big), "\(big) on the world map") }
        for tiny in ["Vatican", "Anguilla", "Grenada", "Bermuda", "Saint Pierre and Miquelon"] {
            XCTAssertFalse(world.contains(tiny), "\(tiny) is a few pixels wide on a world map")
        }
        let caribbean = try basemapTexts([Coordinate(latitude: 11.5, longitude: -64), Coordinate(latitude: 19, longitude: -60)])
        XCTAssertTrue(caribbean.contains("Anguilla") || caribbean.contains("Grenada"), "\(caribbean)")
    }

    func testWritingIntoAFileInsteadOfAFolderFailsAndLeavesNothing() throws {
        let layout = MapLayout(scene: try londonScene(), width: 200, height: 100)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("map-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        XCTAssertThrowsError(try MapRenderer.write(layout, as: .svg, to: file.appendingPathComponent("map.svg"))) { error in
            XCTAssertTrue(error is MapRenderError, "\(error)")
        }
    }

    func testTheTerminalMapWithoutColourHasNoEscapeBytesAndKeepsItsWidth() throws {
        let (_, text) = try MapRenderer.terminal(
            try londonScene(), columns: 80, rows: 30, colour: .none,
            basemap: try BasemapLoader(path: TestPlaces.databasePath))
        XCTAssertFalse(text.utf8.contains(0x1B), "NO_COLOR output holds an escape byte")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 30)
        for line in lines { XCTAssertEqual(line.count, 80) }
        XCTAssertTrue(text.contains("A") && text.contains("C"), "the pins' letters")
        XCTAssertTrue(text.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "braille lines")
    }

    func testTheColourTerminalMapUsesTrueColourOr256Colours() throws {
        let scene = try londonScene()
        let (_, trueColour) = try MapRenderer.terminal(scene, columns: 60, rows: 20, colour: .trueColour)
        XCTAssertTrue(trueColour.contains("\u{1B}[0;38;2;"))
        let (_, palette) = try MapRenderer.terminal(scene, columns: 60, rows: 20, colour: .palette256)
        XCTAssertTrue(palette.contains(";38;5;"))
        XCTAssertFalse(palette.contains(";38;2;"))
    }

    func testGenericCirclesPolylinesAndALegendAreDrawn() throws {
        let region = try XCTUnwrap(MapRegion.fitting([airport, city]))
        let scene = MapScene(
            region: region,
            circles: [
                MapCircle(centre: city, radius: .pixels(12), fill: MapColour.cityRed.withAlpha(0.5), label: "M5.1"),
                MapCircle(centre: airport, radius: .metres(1000), fill: nil, stroke: .userBlue),
            ],
            polylines: [MapPolyline(coordinates: [airport, city])],
            legend: MapLegend(title: "Quakes", entries: [.init(symbol: .circle(radius: 6, fill: .cityRed), label: "M5+")]))
        let layout = MapLayout(scene: scene, width: 800, height: 600)
        let svg = MapRenderer.svg(layout)
        XCTAssertTrue(svg.contains(">M5.1</text>"))
        XCTAssertTrue(svg.contains(">Quakes</text>") && svg.contains(">M5+</text>"))
        XCTAssertTrue(svg.contains("stroke=\"\(MapColour.trackOrange.hex)\""))
        // 1 km around the airport: its radius in pixels is 1 km over the metres per pixel there.
        let radius = layout.items.compactMap { item -> Double? in
            if case .circle(_, let r, let style, _) = item, style.stroke == .userBlue { return r }
            return nil
        }.first
        XCTAssertEqual(try XCTUnwrap(radius), 1000 / layout.viewport.metresPerPixel(atLatitude: airport.latitude), accuracy: 0.5)
    }
}
