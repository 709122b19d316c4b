import Foundation
import Travel411Core
import Travel411Import
import XCTest

final class SourceChecksumTests: XCTestCase {
    func testKnownVector() throws {
        let file = try makeTemporaryDirectory(self).appendingPathComponent("abc.txt")
        try Data("abc".utf8).write(to: file)
        XCTAssertEqual(
            try SourceChecksum.sha256Hex(ofFiles: [file]),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func testMatchesSha256sumForAFileLargerThanOneChunk() throws {
        let sha256sum = "/usr/bin/sha256sum"
        guard FileManager.default.isExecutableFile(atPath: sha256sum) else { throw XCTSkip("sha256sum is not installed") }
        let file = try makeTemporaryDirectory(self).appendingPathComponent("big.shp")
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        try random.readData(ofLength: (3 << 20) + 12_345).write(to: file)  // 3 MiB and a partial chunk
        try random.close()
        let expected = try runProcess(sha256sum, [file.path]).standardOutput.split(separator: " ").first.map(String.init)
        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: [file]), expected)
    }

    func testSeveralFilesHashLikeTheirConcatenation() throws {
        let directory = try makeTemporaryDirectory(self)
        let parts = ["a.shp": "first part, ", "a.dbf": "second part, ", "a.prj": "third"]
        var files: [URL] = []
        for name in ["a.shp", "a.dbf", "a.prj"] {
            let file = directory.appendingPathComponent(name)
            try Data((parts[name] ?? "").utf8).write(to: file)
            files.append(file)
        }
        let joined = directory.appendingPathComponent("joined")
        try Data("first part, second part, third".utf8).write(to: joined)
        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: files), try SourceChecksum.sha256Hex(ofFiles: [joined]))
        XCTAssertNotEqual(try SourceChecksum.sha256Hex(ofFiles: files.reversed()), try SourceChecksum.sha256Hex(ofFiles: files))
    }

    func testMissingFileIsNamedInTheError() throws {
        let missing = try makeTemporaryDirectory(self).appendingPathComponent("gone.shp")
        XCTAssertThrowsError(try SourceChecksum.sha256Hex(ofFiles: [missing])) { error in
            XCTAssertTrue("\(error)".contains(missing.path), "\(error)")
            XCTAssertTrue("\(error)".contains("No such file"), "\(error)")
        }
    }
}
