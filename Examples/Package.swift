// swift-tools-version:6.1
import PackageDescription

// A team's own `pushline`: every built-in command and step, plus `quiet-hours`, a step written in Swift.
// See ../docs/writing-a-swift-step.md. In your own package, depend on Pushline by its URL instead of the path.
let package = Package(
    name: "MyPushline",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Pushline", path: "..")
    ],
    targets: [
        // The step, in a library of its own so its tests can import it.
        .target(name: "QuietHours", dependencies: [.product(name: "PushlineKit", package: "Pushline")]),
        // The executable: the whole pushline command line with the step added.
        .executableTarget(
            name: "my-pushline",
            dependencies: [
                "QuietHours", .product(name: "PushlineKit", package: "Pushline"),
            ]),
        .testTarget(
            name: "QuietHoursTests",
            dependencies: [
                "QuietHours", .product(name: "PushlineKit", package: "Pushline"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
