import XCTest

@testable import Travel411Core

final class ShellQuotingTests: XCTestCase {
    func testPlainWordsStayAsTheyAre() {
        XCTAssertEqual(ShellQuoting.quoted("/data/ne_10m-countries.shp"), "/data/ne_10m-countries.shp")
        XCTAssertEqual(ShellQuoting.quoted("--db"), "--db")
    }

    func testWordsTheShellWouldChangeAreSingleQuoted() {
        XCTAssertEqual(ShellQuoting.quoted("/my maps/roads.shp"), "'/my maps/roads.shp'")
        XCTAssertEqual(ShellQuoting.quoted("~/$HOME/*.shp"), "'~/$HOME/*.shp'")
        XCTAssertEqual(ShellQuoting.quoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(ShellQuoting.quoted("Zürich"), "'Zürich'")
        XCTAssertEqual(ShellQuoting.quoted(""), "''")
    }

    /// What the shell makes of a quoted word is the word.
    func testTheShellReadsTheWordBack() throws {
        let word = "a b'c\"d$e`f\\g\nh"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "printf %s " + ShellQuoting.quoted(word)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: data, as: UTF8.self), word)
    }
}
