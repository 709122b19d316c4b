import Foundation

#if FUZZING
    /// libFuzzer calls this once per input. Which reader it feeds is chosen once per process by
    /// TRAVEL411_FUZZ_TARGET (Scripts/fuzz sets it), so one binary serves every target.
    @_cdecl("LLVMFuzzerTestOneInput")
    public func travel411FuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let input = bytes.map { [UInt8](UnsafeBufferPointer(start: $0, count: count)) } ?? []
        FuzzTarget.selected.run(input)
        return 0
    }

    /// libFuzzer's driver, from the fuzzer runtime that -sanitize=fuzzer links.
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// SwiftPM links an executable's entry point as `<module>_main` and points `main` at it (so that tests
    /// can link the module), which keeps libFuzzer's own `main` out; this one hands over to libFuzzer's driver.
    @_cdecl("Travel411Fuzz_main")
    public func travel411FuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        var argc = argc
        var argv = argv
        return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in travel411FuzzOneInput(bytes, count) }
    }
#else
    /// A plain `swift build` builds this target too; without the fuzzer it only says how to use it.
    @main
    enum FuzzingNotEnabled {
        static func main() {
            FileHandle.standardError.write(
                Data(
                    """
                    travel411-fuzz is a libFuzzer target: run it with Scripts/fuzz TARGET SECONDS \
                    (targets: shapefile, batch, track, quakes, pbf).

                    """.utf8))
            exit(64)
        }
    }
#endif
