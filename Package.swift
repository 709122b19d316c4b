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
// The write side's readers and writers only (see Travel411StoreWriters below). Whole-module, as a release build
// compiles: in a debug build, -O alone optimises each batch of files apart, type-checking the module in each batch
// (docs/development.md, "Build and modules"). -num-threads keeps one object file per source file, which the debug
// build links.
let optimisedSwiftSettings = swiftSettings + [.unsafeFlags(["-O", "-whole-module-optimization", "-num-threads", "2"])]

let package = Package(
    name: "travel411",
    // No `platforms`: travel411 is built and tested on Linux only (docs/development.md, "Platforms").
    // Travel411Kit is the library: open a places database, reverse geocode, Nominatim's answers (docs/library.md).
    // Its targets carry no unsafe flags, so a program can depend on it by version.
    products: [
        .library(name: "Travel411Kit", targets: ["Travel411Kit"]),
        .executable(name: "travel411", targets: ["travel411"]),
        .executable(name: "travel411-tools", targets: ["travel411-tools"]),
        .executable(name: "travel411-serve", targets: ["travel411-serve"]),
    ],
    // `--traits Server` builds the HTTP server (travel411-serve) and its tests: `swift test --traits Server`.
    traits: [
        .trait(
            name: "Server",
            description: "travel411-serve, the Nominatim-compatible HTTP server, on Hummingbird and SwiftNIO"
        )
    ],
    // Exact versions: travel411 is an application, and the same checkout builds the same packages; a new
    // version comes in by changing its line here. The packages these depend on are pinned by the committed
    // Package.resolved, which holds every pin, the Server trait's and the DocC plugin's included
    // (docs/development.md, "Pinned packages").
    dependencies: [
        // 1.8 for options whose value may be left out (`quakes --near-destination [NAME]`, defaultAsFlag).
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // `swift package generate-documentation`, with one `--target` per module of Travel411Kit (the library's
        // DocC catalog; docs/development.md). A command plugin: no target depends on it, so an ordinary build
        // fetches it but never compiles it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
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
        // zlib: the gzip-compressed text files the import reads (the Nominatim country grid).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The lookup pages' compression (zlib streams, deflated and inflated whole), read back by every lookup, and
        // the PBF blocks' inflate (COSMium).
        .systemLibrary(
            name: "CLibdeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]
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
        // The cache-prefetch hint the batch's lookups ask for a few points ahead (`LookupPrefetch`).
        .target(name: "CPrefetch"),
        // glibc's `sincos`, which the per-point distances and unit vectors ask for (`SineCosine`).
        .target(name: "CSineCosine"),
        // libosmium (header-only C++, Debian libosmium2-dev + libprotozero-dev) behind a C interface: the
        // OpenStreetMap extract reader (Travel411OSM). One translation unit, optimised: see docs/import.md. Line
        // tables only: full debug information cost a quarter of its compile in every clean debug build. Not `-g0`:
        // SwiftPM appends `-g` after a target's own flags and the last one wins, while clang's cc1 takes the last
        // `-debug-info-kind`, which this one is (docs/development.md, "Build and modules").
        .target(
            name: "COSMium",
            cxxSettings: [.unsafeFlags(["-O2", "-Xclang", "-debug-info-kind=line-tables-only"])],
            linkerSettings: [
                .linkedLibrary("z"), .linkedLibrary("deflate"), .linkedLibrary("bz2"), .linkedLibrary("expat"), .linkedLibrary("pthread"),
            ]
        ),
        // The geocoder is cut into targets along the flow of data (docs/architecture.md). A target may import only
        // the ones below it, so the compiler refuses an edge against the flow:
        //   Core ← Store ← Geocoder ← Answers ← Batch ← NominatimAPI        (the read side)
        //   Core ← Shapefile, OSM ← OSMReader;  Store, Shapefile, OSM, Geocoder ← Import  (the write side; the import
        //   is handed the OSM reader, so that what imports shapefiles only compiles no libosmium)
        // The read side has no unsafe flags, so that the Travel411Kit product can be a versioned dependency.
        .target(
            name: "Travel411Core",
            dependencies: ["CInterruptCleanup", "CSineCosine"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411Store",
            dependencies: ["Travel411Core", "CSQLite", "CPrefetch", "CLibdeflate"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411Geocoder",
            dependencies: ["Travel411Core", "Travel411Store"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411Answers",
            dependencies: ["Travel411Core", "Travel411Store", "Travel411Geocoder"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411Batch",
            dependencies: ["Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Travel411NominatimAPI",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch",
            ],
            swiftSettings: swiftSettings
        ),
        // The library product: the read side behind one `import Travel411Kit`.
        .target(
            name: "Travel411Kit",
            dependencies: ["Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers"],
            swiftSettings: swiftSettings
        ),
        // The write side. The first `swift run travel411 where …` imports Data/ in a debug build; unoptimised,
        // that import takes minutes instead of seconds, so the readers of outside files and the store's writers
        // are always optimised. They are not part of the library product, whose closure must have no unsafe flags.
        // The writers of the store's formats (the lookup tables' builders, GeoPackage features, external sorts):
        // each format's reader is in Travel411Store, its writer here, optimised for the reason above.
        .target(
            name: "Travel411StoreWriters",
            dependencies: ["Travel411Core", "Travel411Store"],
            swiftSettings: optimisedSwiftSettings
        ),
        .target(
            name: "Travel411Shapefile",
            dependencies: ["Travel411Core", "CShapelib"],
            swiftSettings: optimisedSwiftSettings
        ),
        // OpenStreetMap's features as the import reads them, and how they are classified; not how a file is read.
        // Not optimised in a debug build: the first build compiles it only because the import's OpenStreetMap
        // rules name its types; the import of `Data/` runs none of it, and -O tripled its compile
        // (docs/development.md, "Build and modules").
        .target(
            name: "Travel411OSM",
            dependencies: ["Travel411Core"],
            swiftSettings: swiftSettings
        ),
        // The extract reader over libosmium (COSMium), apart from the features so that the import, and so the first
        // `travel411 where …` that imports Data/, compiles neither: only what imports an extract depends on it
        // (travel411-tools, the tests, the benchmark and fuzz targets), and hands it to the import
        // (`ImportOptions.extractReader`).
        .target(
            name: "Travel411OSMReader",
            dependencies: ["Travel411Core", "Travel411OSM", "COSMium"],
            swiftSettings: optimisedSwiftSettings
        ),
        // The import itself is not optimised in a debug build (a release build optimises it with everything else): at
        // -O it was the first build's longest compile, about a third of its CPU and mostly on one core (69 s against
        // 11 s without), and it saved the debug import of Data/ only about 6 s of CPU of 22 (docs/development.md,
        // "Build and modules").
        .target(
            name: "Travel411Import",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411StoreWriters", "Travel411Geocoder", "Travel411Shapefile",
                "Travel411OSM", "CCrypto", "CInterruptCleanup", "CZlib",
            ],
            swiftSettings: swiftSettings
        ),
        // The travel guide and what draws and reads around it: Airports, Travel, Tracking, Render, Quakes. Not
        // optimised: nothing here is hot (a map, a track, a feed take milliseconds), and -O on these ~7,500 lines
        // cost a fresh clone's first build about as much CPU as the whole geocoder.
        .target(
            name: "Travel411Guide",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch",
                "CCairo", "CSQLite", "CShapelib",
            ],
            swiftSettings: swiftSettings
        ),
        // What both executables share: the root's help and error handling, `where`, `serve`, `import`'s arguments, the
        // list of the commands travel411 hands to travel411-tools.
        .target(
            name: "Travel411CLI",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch", "Travel411Import",
                "Travel411OSM", "Travel411NominatimAPI", "Travel411ServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // `travel411`: `where`, `import` of shapefiles (and of Data/ on first use) and `serve`; every other command is
        // handed to travel411-tools, which it builds first when it runs from a build folder. A fresh clone's first
        // `swift run travel411 where …` so compiles neither the Guide nor libosmium (docs/architecture.md).
        .executableTarget(
            name: "travel411",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch", "Travel411Import",
                "Travel411NominatimAPI", "Travel411CLI",
                "Travel411ServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Every command, those travel411 hands over (the travel guide, the map, quakes, the import of OpenStreetMap
        // extracts) with the Guide and libosmium.
        .executableTarget(
            name: "travel411-tools",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch", "Travel411Import",
                "Travel411OSMReader", "Travel411CLI", "Travel411Guide", "Travel411NominatimAPI", "Travel411ServeOptions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // `travel411 serve`'s options, shared by `travel411` (which hands them on) and `travel411-serve`: one
        // declaration of the eight options, without the server's packages.
        .target(
            name: "Travel411ServeOptions",
            dependencies: ["Travel411Core", "Travel411NominatimAPI", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),
        // The HTTP server as a library (`buildApplication(options:)`), so that tests run it in process. Its
        // packages come only with the Server trait; without it the target is empty.
        .target(
            name: "Travel411Server",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Batch", "Travel411Import", "Travel411StoreWriters",
                "Travel411NominatimAPI",
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
                "Travel411Core", "Travel411NominatimAPI",
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
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Batch", "Travel411Import", "Travel411StoreWriters",
                "Travel411OSM", "Travel411OSMReader", "Travel411Shapefile", "Travel411Guide",
            ],
            path: "Fuzz/Travel411Fuzz",
            swiftSettings: swiftSettings
        ),
        // In-process measurements of single parts (the batch pipeline alone, lookups on one core, GeoPackage
        // inserts): `Scripts/bench --parts` builds it in release. Figures belong here, not in timed tests.
        .executableTarget(
            name: "travel411-bench",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Batch", "Travel411Import", "Travel411StoreWriters",
                "Travel411OSM",
            ],
            path: "Benchmarks/travel411-bench",
            swiftSettings: swiftSettings
        ),
        // What the test targets share: the places database imported from Data/ once per test run, and
        // what the test process sets up as it loads (Travel411TestStartup, a C constructor).
        .target(
            name: "Travel411TestSupport",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Batch", "Travel411Import", "Travel411StoreWriters",
                "Travel411TestStartup",
            ],
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
            dependencies: [
                "Travel411Kit",
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch",
                "Travel411NominatimAPI", "Travel411Import", "Travel411StoreWriters", "Travel411OSM",
                "Travel411OSMReader", "Travel411Shapefile", "Travel411TestSupport",
                "CShapelib",
                "CSQLite",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "Travel411GuideTests",
            dependencies: [
                "Travel411Guide", "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Import", "Travel411StoreWriters",
                "Travel411OSM", "Travel411OSMReader", "Travel411Shapefile", "Travel411TestSupport", "CSQLite",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "Travel411CLITests",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch", "Travel411Import",
                "Travel411StoreWriters", "Travel411Guide", "Travel411CLI", "Travel411TestSupport",
            ],
            // Expected outputs, read from the source tree by path (GoldenOutput), not bundled.
            exclude: ["Golden"],
            swiftSettings: swiftSettings
        ),
        // The server in process through HummingbirdTesting (`.router` for the API, `.live` where sockets matter), and
        // the built `travel411-serve` for what only a process shows (signals, exit status).
        .testTarget(
            name: "Travel411ServeTests",
            dependencies: [
                "Travel411Core", "Travel411Store", "Travel411Geocoder", "Travel411Answers", "Travel411Batch", "Travel411Import",
                "Travel411StoreWriters", "Travel411NominatimAPI", "Travel411OSMReader",
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
