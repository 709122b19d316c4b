import Foundation
import XCTest
@testable import Travel411Kit

final class DelimitedBatchTests: XCTestCase {
    private let fieldsHeader = PlacemarkField.allCases.map(\.rawValue).joined(separator: ",") + ",error"

    func testSimpleCSVGetsPlacemarkColumnsAppended() throws {
        let run = try runBatch("id,lat,lon\n1,51.5,-0.1\n2,-33.9,151.2\n", options: BatchOptions(fields: [.country, .isoCountryCode]))
        XCTAssertEqual(run.text, "id,lat,lon,country,isoCountryCode,error\n1,51.5,-0.1,N,W,\n2,-33.9,151.2,S,E,\n")
        XCTAssertEqual(run.summary.rows, 2)
        XCTAssertEqual(run.summary.errors, 0)
        XCTAssertEqual(run.summary.exitCode, 0)
    }
}
