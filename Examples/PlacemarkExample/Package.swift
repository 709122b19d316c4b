// swift-tools-version:6.1
import PackageDescription

// A program that uses travel411 as a library, as any other package would: by version, through a git URL.
// travel411 is not published yet, so the URL below is a placeholder; `Scripts/example-consumer` (run by CI)
// builds a copy of this package against a tagged clone of the repository.
let package = Package(
    name: "PlacemarkExample",
    dependencies: [
        .package(url: "https://example.com/travel411.git", from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "PlacemarkExample",
            dependencies: [.product(name: "Travel411Kit", package: "travel411")]
        )
    ],
    swiftLanguageModes: [.v6]
)
