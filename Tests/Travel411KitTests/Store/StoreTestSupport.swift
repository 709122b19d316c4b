import Foundation
import XCTest

/// A fresh directory under the system temporary directory, removed when the test ends.
func makeTemporaryDirectory(_ testCase: XCTestCase, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("travel411-store-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    testCase.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return directory
}

struct ProcessOutput {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var combined: String { standardOutput + standardError }
}

/// Runs a program to completion and captures what it prints.
func runProcess(_ executable: String, _ arguments: [String]) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let outputPipe = Pipe(), errorPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    try process.run()
    // Read before waiting, so a chatty program cannot fill the pipe and block forever.
    let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
    let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessOutput(
        status: process.terminationStatus,
        standardOutput: String(decoding: output, as: UTF8.self),
        standardError: String(decoding: error, as: UTF8.self))
}
