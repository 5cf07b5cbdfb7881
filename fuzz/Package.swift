// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for every parser that reads outside input. A package of its own, so the product's build and
// tests never compile them; fuzz/run.sh builds one with `-sanitize=fuzzer,address` and runs it. Built without
// those flags, each harness is a replayer: `Replay FILE…` runs the inputs once each (how a crash is reproduced).
let harnesses: [(name: String, dependencies: [String])] = [
    ("TagExpressionFuzz", ["HubExpressions"]),
    ("TemplateFuzz", ["HubExpressions"]),
    ("PipelineYAMLFuzz", ["PipelineConfig", "PipelineCore"]),
    ("ConnectionStringFuzz", ["HubWire"]),
    ("SASTokenFuzz", ["HubWire"]),
    ("RegistrationXMLFuzz", ["HubWire"]),
    ("DirectBatchFuzz", ["HubWire"]),
    ("RowsFuzz", ["RowReading", "PipelineCore"]),
    ("ServeRequestFuzz", ["PushService", "PipelineCore", "HubWire"]),
    ("TestFileFuzz", ["PipelineTesting"]),
]

let package = Package(
    name: "PushlineFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Pushline", path: ".."),
        // The currency of `pushline serve`'s in-process client (already in Pushline's graph).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(name: "FuzzSupport", path: "Support")
    ]
        + harnesses.map { harness in
            .executableTarget(
                name: harness.name,
                dependencies: ["FuzzSupport"] + harness.dependencies.map { .product(name: $0, package: "Pushline") }
                    + (harness.name == "ServeRequestFuzz"
                        ? [.product(name: "HTTPTypes", package: "swift-http-types")] : []),
                path: "Harnesses/\(harness.name)")
        }
)
