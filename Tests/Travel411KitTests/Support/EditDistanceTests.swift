import XCTest

@testable import Travel411Core

final class EditDistanceTests: XCTestCase {
    func testCountsInsertionsDeletionsAndSubstitutions() {
        XCTAssertEqual(EditDistance.levenshtein("", ""), 0)
        XCTAssertEqual(EditDistance.levenshtein("LHR", "LHR"), 0)
        XCTAssertEqual(EditDistance.levenshtein("LHR", "LHX"), 1)
        XCTAssertEqual(EditDistance.levenshtein("LHR", "LH"), 1)
        XCTAssertEqual(EditDistance.levenshtein("EGLL", "EGL"), 1)
        XCTAssertEqual(EditDistance.levenshtein("kitten", "sitting"), 3)
        XCTAssertEqual(EditDistance.levenshtein("", "abc"), 3)
    }
}

final class NegativeNumberArgumentsTests: XCTestCase {
    func testProtectsNegativeNumbersOnly() {
        let protected = NegativeNumberArguments.protect(["move-city", "51.5010", "-0.1919", "--format", "json", "-h", "-.5", "-1e-3"])
        XCTAssertEqual(protected, ["move-city", "51.5010", " -0.1919", "--format", "json", "-h", " -.5", " -1e-3"])
    }

    func testLeavesArgumentsAfterTheTerminatorAlone() {
        XCTAssertEqual(NegativeNumberArguments.protect(["--", "-5"]), ["--", "-5"])
    }

    func testRecognisesNumbers() {
        XCTAssertTrue(NegativeNumberArguments.isNegativeNumber("-179.877"))
        XCTAssertFalse(NegativeNumberArguments.isNegativeNumber("-"))
        XCTAssertFalse(NegativeNumberArguments.isNegativeNumber("--5"))
        XCTAssertFalse(NegativeNumberArguments.isNegativeNumber("-v"))
        XCTAssertFalse(NegativeNumberArguments.isNegativeNumber("-inf"))
        XCTAssertFalse(NegativeNumberArguments.isNegativeNumber("-nan"))
    }
}
