import Foundation
import Testing

/// One point with `--fields` and the batch formats prints what many points print: a file holding
/// that one point, through `where --input`, is the reference.
@Suite struct WhereOnePointFormatTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var latitude: String
        var longitude: String
        var format: String
        var fields: String?
        var testDescription: String { "\(latitude) \(longitude) --format \(format) --fields \(fields ?? "(all)")" }
    }

    static let cases: [Case] = [
        Case(latitude: "51.5174", longitude: "-0.12", format: "csv", fields: "locality,country"),
        Case(latitude: "51.5174", longitude: "-0.12", format: "tsv", fields: nil),
        Case(latitude: "48.8584", longitude: "2.2945", format: "jsonl", fields: "country,postalCode,locality"),
        Case(latitude: "0", longitude: "-140", format: "csv", fields: nil),
        Case(latitude: "-33.8568", longitude: "151.2153", format: "jsonl", fields: nil),
    ]

    @Test(arguments: cases)
    func aBatchFormatPrintsTheRowManyPointsPrint(_ point: Case) throws {
        let cli = try TravelCLI()
        defer { cli.removeFolder() }
        let fields = point.fields.map { ["--fields", $0] } ?? []
        let one = try cli.run(["where", point.latitude, point.longitude, "--format", point.format] + fields)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr == "")

        let extensionName = point.format == "jsonl" ? "jsonl" : "csv"
        let input = cli.folder.appendingPathComponent("one.\(extensionName)")
        let row =
            point.format == "jsonl"
            ? "{\"lat\":\(point.latitude),\"lon\":\(point.longitude)}\n" : "lat,lon\n\(point.latitude),\(point.longitude)\n"
        try Data(row.utf8).write(to: input)
        let many = try cli.run(["where", "--input", input.path, "--format", point.format] + fields)
        #expect(many.status == 0, "\(many.stderr)")
        #expect(one.stdout == many.stdout)
    }

    @Test func fieldsPickAndOrderTheTextAndJSONOfOnePoint() throws {
        let cli = try TravelCLI()
        defer { cli.removeFolder() }
        let text = try cli.run(["where", "51.5174", "-0.12", "--fields", "country,locality"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout == "location               51.5174, -0.12\ncountry                United Kingdom\nlocality               London\n")
        let json = try cli.run(["where", "51.5174", "-0.12", "--fields", "locality,ocean", "--format", "json"])
        #expect(json.stdout == "{\"latitude\":51.5174,\"longitude\":-0.12,\"locality\":\"London\",\"ocean\":null}\n")
        let geojson = try cli.run(["where", "51.5174", "-0.12", "--fields", "isoCountryCode", "--format", "geojson"])
        #expect(
            geojson.stdout
                == "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-0.12,51.5174]},\"properties\":{\"latitude\":51.5174,\"longitude\":-0.12,\"isoCountryCode\":\"GB\"}}\n"
        )
    }
}
