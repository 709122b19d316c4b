// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "travel411",
    platforms: [.macOS(.v13)],
    // No library product: Travel411Kit is compiled with -O (below), an unsafe flag that SwiftPM refuses in
    // a versioned dependency. Programs use travel411 through its batch mode (rows on stdin, one row out
    // per row) and `travel411 serve`; README "Using travel411 from other programs" says how.
    products: [
        .executable(name: "travel411", targets: ["travel411"]),
    ],
    dependencies: [
        // 1.8.0 for options whose value may be left out (`quakes --near-destination [NAME]`, defaultAsFlag).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CShapelib",
            pkgConfig: "shapelib",
            providers: [.apt(["libshp-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "Travel411Kit",
            dependencies: [
                "CShapelib", "CSQLite", "CCrypto",
            ],
            // The first `swift run travel411 where …` builds the places database in a debug build;
            // unoptimised, that import takes minutes instead of seconds, so the library is always optimised.
            // (This is why there is no library product: see `products`.)
            swiftSettings: [.unsafeFlags(["-O"])]
        ),
        .executableTarget(
            name: "travel411",
            dependencies: [
                "Travel411Kit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // libFuzzer targets for every reader of outside files (Scripts/fuzz builds it with -sanitize=fuzzer and
        // -DFUZZING). A plain build gives a stub that says so, so `swift build` and `swift test` need no flags.
        .executableTarget(
            name: "Travel411Fuzz",
            dependencies: ["Travel411Kit"],
            path: "Fuzz/Travel411Fuzz"
        ),
        // What both test targets share: the places database imported from Data/ once per test run.
        .target(
            name: "Travel411TestSupport",
            dependencies: ["Travel411Kit"],
            path: "Tests/Travel411TestSupport"
        ),
        .testTarget(
            name: "Travel411KitTests",
            dependencies: ["Travel411Kit", "Travel411TestSupport", "CShapelib", "CSQLite"]
        ),
        .testTarget(
            name: "Travel411CLITests",
            dependencies: ["Travel411Kit", "Travel411TestSupport"],
            // Expected outputs, read from the source tree by path (GoldenOutput), not bundled.
            exclude: ["Golden"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
