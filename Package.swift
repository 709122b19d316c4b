// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "travel411",
    platforms: [.macOS(.v13)],
    // No library product: Travel411Kit is compiled with -O (below), an unsafe flag that SwiftPM refuses in
    // a versioned dependency. Programs use travel411 through its batch mode (rows on stdin, one row out
    // per row) and `travel411 serve`; README "Using travel411 from other programs" says how.
    products: [
        .executable(name: "travel411", targets: ["travel411"]),
        .executable(name: "travel411-serve", targets: ["travel411-serve"]),
    ],
    dependencies: [
        // 1.8.0 for options whose value may be left out (`quakes --near-destination [NAME]`, defaultAsFlag).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.0"),
        // Only the server (`travel411-serve`) uses these; `swift build --product travel411` never compiles them.
        // Hummingbird's default traits pull in swift-configuration, which the server does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
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
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "Travel411Kit",
            dependencies: [
                "CShapelib", "CSQLite", "CCrypto", "CCairo",
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
            ],
            // The Swift 6 language mode, target by target: the executable first (the library next).
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The HTTP server: its own executable so that SwiftNIO stays out of the core tool's build.
        // `travel411 serve` runs it when it has been built.
        .executableTarget(
            name: "travel411-serve",
            dependencies: [
                "Travel411Kit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // libFuzzer targets for every reader of outside files (Scripts/fuzz builds it with -sanitize=fuzzer and
        // -DFUZZING). A plain build gives a stub that says so, so `swift build` and `swift test` need no flags.
        .executableTarget(
            name: "Travel411Fuzz",
            dependencies: ["Travel411Kit"],
            path: "Fuzz/Travel411Fuzz"
        ),
        // What the test targets share: the places database imported from Data/ once per test run, and
        // what the test process sets up as it loads (Travel411TestStartup, a C constructor).
        .target(
            name: "Travel411TestSupport",
            dependencies: ["Travel411Kit", "Travel411TestStartup"],
            path: "Tests/Travel411TestSupport"
        ),
        .target(
            name: "Travel411TestStartup",
            path: "Tests/Travel411TestStartup"
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
        // Starts the built `travel411-serve` on a free loopback port and talks HTTP to it.
        .testTarget(
            name: "Travel411ServeTests",
            dependencies: ["Travel411Kit", "Travel411TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v5]
)
