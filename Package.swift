// swift-tools-version:6.1
import PackageDescription

// Every Swift target (tests, fuzz and benchmark targets included) compiles with these upcoming features.
// ExistentialAny: an existential is written `any P` (`any Error`), so that it does not read as a concrete type.
// MemberImportVisibility: a file uses members only of the modules it imports itself, not of those another file
// of its target imports, so each file's imports, and its target's dependencies below, say what it uses.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "travel411",
    // No `platforms`: travel411 is built and tested on Linux only (docs/development.md, "Platforms").
    // No library product: Travel411Kit is compiled with -O (below), an unsafe flag that SwiftPM refuses in
    // a versioned dependency. Programs use travel411 through its batch mode (rows on stdin, one row out
    // per row) and `travel411 serve`; README "Using travel411 from other programs" says how.
    products: [
        .executable(name: "travel411", targets: ["travel411"]),
        .executable(name: "travel411-serve", targets: ["travel411-serve"]),
    ],
    // `--traits Server` builds the HTTP server (travel411-serve) and its tests: `swift test --traits Server`.
    traits: [
        .trait(
            name: "Server",
            description: "travel411-serve, the Nominatim-compatible HTTP server, on Hummingbird and SwiftNIO"
        )
    ],
    // Exact versions: travel411 is an application, and the same checkout builds the same packages. They
    // stand in for a committed Package.resolved, which docs/development.md ("Pinned packages") says why
    // is not committed; a new version comes in by changing its line here.
    dependencies: [
        // 1.8 for options whose value may be left out (`quakes --near-destination [NAME]`, defaultAsFlag).
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // Only the server (`travel411-serve`) uses these, and only with the Server trait: without it SwiftPM does
        // not even fetch them (trait-guarded dependencies are pruned), which saves a fresh clone's first
        // `swift run travel411 …` about 20 s of resolving. Hummingbird's default traits pull in
        // swift-configuration, which the server does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
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
        // The signal handler that deletes a half-built database when the build is interrupted: in C, since
        // a handler may only make async-signal-safe calls, which Swift code cannot promise.
        .target(name: "CInterruptCleanup"),
        // libosmium (header-only C++, Debian libosmium2-dev + libprotozero-dev) behind a C interface: the
        // OpenStreetMap extract reader (Travel411Kit/OSM). One translation unit, optimised: see docs/import.md.
        .target(
            name: "COSMium",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [
                .linkedLibrary("z"), .linkedLibrary("bz2"), .linkedLibrary("expat"), .linkedLibrary("pthread"),
            ]
        ),
        .target(
            name: "Travel411Kit",
            dependencies: [
                "CShapelib", "CSQLite", "CCrypto", "CInterruptCleanup", "COSMium",
            ],
            // The first `swift run travel411 where …` builds the places database in a debug build;
            // unoptimised, that import takes minutes instead of seconds, so the library is always optimised.
            // (This is why there is no library product: see `products`.)
            swiftSettings: swiftSettings + [.unsafeFlags(["-O"])]
        ),
        // The travel guide and what draws and reads around it: Airports, Travel, Tracking, Render, Quakes. Not
        // optimised: nothing here is hot (a map, a track, a feed take milliseconds), and -O on these ~7,500 lines
        // cost a fresh clone's first build about as much CPU as the whole geocoder.
        .target(
            name: "Travel411Guide",
            dependencies: ["Travel411Kit", "CCairo", "CSQLite", "CShapelib"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "travel411",
            dependencies: [
                "Travel411Kit",
                "Travel411Guide",
                "Travel411ServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // `travel411 serve`'s options, shared by `travel411` (which hands them on) and `travel411-serve`: one
        // declaration of the eight options, without the server's packages.
        .target(
            name: "Travel411ServeOptions",
            dependencies: ["Travel411Kit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // The HTTP server as a library (`buildApplication(options:)`), so that tests run it in process. Its
        // packages come only with the Server trait; without it the target is empty.
        .target(
            name: "Travel411Server",
            dependencies: [
                "Travel411Kit",
                "Travel411ServeOptions",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
        // The server's executable: `main` over Travel411Server. Its own executable so that SwiftNIO stays out of
        // the core tool's build; without the Server trait it is a stub that says how to build it. `travel411 serve`
        // runs it when it has been built.
        .executableTarget(
            name: "travel411-serve",
            dependencies: [
                "Travel411Kit",
                "Travel411ServeOptions",
                "Travel411Server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
        // libFuzzer targets for every reader of outside files (Scripts/fuzz builds it with -sanitize=fuzzer and
        // -DFUZZING). A plain build gives a stub that says so, so `swift build` and `swift test` need no flags.
        .executableTarget(
            name: "Travel411Fuzz",
            dependencies: ["Travel411Kit", "Travel411Guide"],
            path: "Fuzz/Travel411Fuzz",
            swiftSettings: swiftSettings
        ),
        // In-process measurements of single parts (the batch pipeline alone, lookups on one core, GeoPackage
        // inserts): `Scripts/bench --parts` builds it in release. Figures belong here, not in timed tests.
        .executableTarget(
            name: "travel411-bench",
            dependencies: ["Travel411Kit"],
            path: "Benchmarks/travel411-bench",
            swiftSettings: swiftSettings
        ),
        // What the test targets share: the places database imported from Data/ once per test run, and
        // what the test process sets up as it loads (Travel411TestStartup, a C constructor).
        .target(
            name: "Travel411TestSupport",
            dependencies: ["Travel411Kit", "Travel411TestStartup"],
            path: "Tests/Travel411TestSupport",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411TestStartup",
            path: "Tests/Travel411TestStartup"
        ),
        // One test target per library: the Kit's tests build without the Guide.
        .testTarget(
            name: "Travel411KitTests",
            dependencies: ["Travel411Kit", "Travel411TestSupport", "CShapelib", "CSQLite"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "Travel411GuideTests",
            dependencies: ["Travel411Guide", "Travel411Kit", "Travel411TestSupport", "CSQLite"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "Travel411CLITests",
            dependencies: ["Travel411Kit", "Travel411Guide", "Travel411TestSupport"],
            // Expected outputs, read from the source tree by path (GoldenOutput), not bundled.
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        // The server in process through HummingbirdTesting (`.router` for the API, `.live` where sockets matter), and
        // the built `travel411-serve` for what only a process shows (signals, exit status).
        .testTarget(
            name: "Travel411ServeTests",
            dependencies: [
                "Travel411Kit",
                "Travel411TestSupport",
                "Travel411ServeOptions",
                "Travel411Server",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    // Every target, tests and fuzz targets included, builds in the Swift 6 language mode: the compiler checks
    // the batch's worker threads and the server for data races (what it cannot prove is said where it is).
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
