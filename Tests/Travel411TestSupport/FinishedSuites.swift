import Foundation
import XCTest

/// Keeps every finished test suite until the process exits. swift-corelibs-xctest leaves each test case and
/// its XCTestCaseRun in a reference cycle; once XCTMain returns nothing reaches them, so LeakSanitizer's check
/// at exit (Scripts/sanitize address) reported every test object of the run as leaked. Held from here they
/// stay reachable, and what the check reports is travel411's own (no suppression to hide it).
final class FinishedSuites: NSObject, XCTestObservation {
    nonisolated(unsafe) static var kept: [XCTestSuite] = []

    func testSuiteDidFinish(_ testSuite: XCTestSuite) { Self.kept.append(testSuite) }
}

/// Called by Travel411TestStartup's load-time constructor, before XCTest runs anything.
@_cdecl("travel411TestProcessDidLoad")
public func travel411TestProcessDidLoad() {
    XCTestObservationCenter.shared.addTestObserver(FinishedSuites())
}
