// swift-tools-version:6.1
import PackageDescription

// Each third-party package is imported by exactly one edge target, so the core compiles
// fast and the dependency graph stays readable (see ../shared/docs/design.md).
let package = Package(
    name: "Pushline",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pushline", targets: ["pushline"]),
        // The Step API and an entry point that runs the whole command line with a package's own steps
        // (docs/writing-a-swift-step.md). Its public surface is the API; everything beneath it is `package`.
        .library(name: "PushlineKit", targets: ["PushlineKit"]),
        // The parsers that read outside input, for the libFuzzer harnesses in fuzz/ (a package of its own, built
        // with the fuzzer's instrumentation by fuzz/run.sh); not an API: what they make public may change.
        .library(name: "HubExpressions", targets: ["HubExpressions"]),
        .library(name: "HubWire", targets: ["HubWire"]),
        .library(name: "PipelineCore", targets: ["PipelineCore"]),
        .library(name: "PipelineConfig", targets: ["PipelineConfig"]),
        .library(name: "RowReading", targets: ["RowReading"]),
        .library(name: "HTTPServing", targets: ["HTTPServing"]),
        .library(name: "PushService", targets: ["PushService"]),
        .library(name: "PipelineTesting", targets: ["PipelineTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // 4.1 or later: jwt-kit 5 needs it (and its CryptoExtras product).
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Already in the graph through Hummingbird; named for the emulator's response-dating handler.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // Beneath Hummingbird too; named so the emulator can be shut down gracefully from inside the process
        // (`pushline demo`), not only by a signal.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Beneath postgres-nio; named for the TLS settings of a `postgres://…?sslmode=` run store.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.3.0"),
        // Child processes for plugins: their stdin, stdout and stderr streamed, and signals to stop them.
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        // Beneath swift-subprocess; its API takes SystemPackage's FilePath on Linux.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.5.0"),
        // OpenTelemetry spans over OTLP/HTTP (protobuf or JSON); the gRPC exporter's packages are left out.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // Beneath swift-otel; named for the span API the telemetry target records with.
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // `swift package generate-documentation --target PipelineCore`: the Step API's DocC catalog (CI builds it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Tag expressions and the NH template language. No third-party imports.
        .target(name: "HubExpressions"),
        // Connection strings, SAS tokens, platform rules. Only swift-crypto.
        .target(
            name: "HubWire",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto")
            ]),
        // Step protocol, registry, engine, diagnostics, reports. Only swift-log.
        .target(
            name: "PipelineCore",
            dependencies: [
                "HubExpressions", "HubWire",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The engine: the step registry (a value built once), composition (references to earlier steps' outputs, built
        // then resolved when the step runs; conditions; the rows of a `for-each`, opened for the step), the run of a
        // pipeline's steps in their spans, and its report.
        .target(
            name: "Engine",
            dependencies: [
                "PipelineCore", "RunStore", "RowReading", "HubWire",
                .product(name: "Logging", package: "swift-log"),
                // An API-only package meant for libraries: spans go to whatever tracer the edge installs (none: no spans).
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        // The hub client: a declared hub's session (signed requests, NH's refusals as step failures), the probe of
        // `check`, reading delivery outcomes from telemetry, and what a request's span carries.
        .target(
            name: "HubClient",
            dependencies: [
                "PipelineCore", "HubWire",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]),
        // The process's log handler (plain lines on a terminal, JSON lines for cron) and progress as log lines: set
        // up by the executables, never by a library.
        .target(
            name: "PushlineLogging", dependencies: ["PipelineCore", .product(name: "Logging", package: "swift-log")]),
        // The batch engine: items sent with bounded concurrency and pacing, journalled before and after, resumed
        // without sending twice, held back by idempotency keys across runs. No third-party imports.
        .target(name: "BatchEngine", dependencies: ["HubClient", "PipelineCore", "RunStore", "HubWire"]),
        // Streamed `for-each`, device and handle files: lines, RFC 4180 CSV, JSON arrays, rows. No third-party imports.
        .target(name: "RowReading", dependencies: ["PipelineCore", "HubExpressions", "HubWire"]),
        // YAML → PipelineDocument with source marks. Only Yams.
        .target(
            name: "PipelineConfig",
            dependencies: [
                "Engine", "PipelineCore",
                .product(name: "Yams", package: "Yams"), "HubExpressions", "HubWire",
            ]),
        .target(
            name: "SignStep",
            dependencies: ["PipelineCore", "HubWire", .product(name: "Logging", package: "swift-log")],
            path: "Sources/Steps/SignStep"),
        .target(
            name: "RenderStep", dependencies: ["PipelineCore", "HubWire", "HubExpressions"],
            path: "Sources/Steps/RenderStep"),
        .target(
            name: "CancelStep", dependencies: ["HubClient", "PipelineCore", "RunStore", "HubWire"],
            path: "Sources/Steps/CancelStep"),
        .target(
            name: "OutcomesStep",
            dependencies: [
                "HubClient", "PipelineCore", "RunStore", "HubWire", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Steps/OutcomesStep"),
        .target(
            name: "RegisterStep",
            dependencies: [
                "HubClient", "PipelineCore", "RunStore", "BatchEngine", "RowReading", "HubWire", "HubExpressions",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Steps/RegisterStep"),
        .target(
            name: "SendStep",
            dependencies: [
                "HubClient", "PipelineCore", "RunStore", "BatchEngine", "RowReading", "HubWire", "HubExpressions",
            ],
            path: "Sources/Steps/SendStep"),
        // Reads rows from the app's database: SQLite through the system library, PostgreSQL through the run store's
        // read-only query (postgres-nio stays at its one edge, PostgresRunStore), with the store's URL and TLS rules.
        .target(
            name: "QueryStep",
            dependencies: [
                "PipelineCore", "RunStore", "HubWire", "SQLiteRunStore", "PostgresRunStore",
            ], path: "Sources/Steps/QueryStep"),
        .target(
            name: "BuiltinSteps",
            dependencies: [
                "Engine", "PipelineCore", "SignStep", "RenderStep", "RegisterStep", "SendStep", "CancelStep",
                "OutcomesStep", "QueryStep",
            ]),
        // The plugin protocol's messages: JSON Lines read and written, a plugin's description. No third-party imports.
        .target(name: "PluginProtocol", dependencies: ["PipelineCore", "HubWire"]),
        // Process plugins: the host's side of the protocol over a child's stdin and stdout. Only swift-subprocess (and
        // swift-log's Logger of the step context).
        .target(
            name: "PluginStep",
            dependencies: [
                "PipelineCore", "RunStore", "PluginProtocol", "HubWire",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Steps/PluginStep"),
        // The run journal over SQLite (the system's libsqlite3). Only CSQLite.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // The run-store protocol (runs, items, the per-pipeline lock) and its value types. No third-party imports.
        .target(
            name: "RunStore",
            dependencies: ["PipelineCore", "HubWire", .product(name: "Logging", package: "swift-log")]),
        .target(name: "SQLiteRunStore", dependencies: ["RunStore", "PipelineCore", "HubWire", "CSQLite"]),
        // The run store in PostgreSQL, shared by runs on several machines: runs, items, advisory locks fenced by
        // an epoch. Only postgres-nio (and the NIO, TLS and logging types of its API).
        .target(
            name: "PostgresRunStore",
            dependencies: [
                "RunStore", "PipelineCore", "LoopExecutor", "HubWire",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The run flow every front end drives: load → build → identity → lock → store → run → report and metrics.
        // No third-party imports but swift-service-lifecycle's signals.
        .target(
            name: "RunFlow",
            dependencies: [
                "Engine", "PipelineCore", "PipelineConfig", "BuiltinSteps", "PluginStep", "HubWire", "HubHTTP",
                "RunStore", "SQLiteRunStore",
                "PostgresRunStore",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // SIGINT and SIGTERM as an async sequence: swift-service-lifecycle's, which both servers run under.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"), "HubExpressions",
            ]),
        // HubTransport over HTTP/1.1 on SwiftNIO: retries, Retry-After, timeouts, keep-alive connections. Only NIO's
        // HTTP/1.1 codecs, NIOSSL and the event loop (a batch runs on the client's own loop).
        .target(
            name: "HubHTTP",
            dependencies: [
                "HubClient", "PipelineCore", "HubWire",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"), "LoopExecutor",
            ]),
        // An event loop as a task executor, for the edges whose tasks await a loop's channels (HubHTTP, PostgresRunStore).
        .target(name: "LoopExecutor", dependencies: [.product(name: "NIOCore", package: "swift-nio")]),
        // HTTP/1.1 serving for the emulator and `pushline serve`: listening, TLS, graceful shutdown, the peer of a
        // request. Hummingbird (a framework both servers may use) and the NIO/lifecycle types beneath it.
        .target(
            name: "HTTPServing",
            dependencies: [
                "HubWire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // Makes the emulator's local certificate authority (`LocalCertificates`); no other target imports it.
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),
        // The local NH-compatible server: NH's routes on Hummingbird's router, with SAS, latency and fault middleware.
        // Shares wire formats and the expression language with the client, never the pipeline engine.
        .target(
            name: "HubEmulator",
            dependencies: [
                "HubWire", "HubExpressions", "HTTPServing", .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // bcrypt for the users file of `pushline serve`: hummingbird-auth's hashing, and its verifier on NIO's thread pool.
        .target(
            name: "PasswordHashing",
            dependencies: [
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdBasicAuth", package: "hummingbird-auth"),
            ]),
        // Bearer JWTs for `pushline serve`. Only jwt-kit.
        .target(
            name: "TokenVerification",
            dependencies: [
                .product(name: "JWTKit", package: "jwt-kit")
            ]),
        // The `/metrics` of `pushline serve`. Only swift-prometheus.
        .target(
            name: "ServiceMetrics",
            dependencies: [
                .product(name: "Prometheus", package: "swift-prometheus")
            ]),
        // `pushline serve`: the notify-users backend on Hummingbird's router: sign-in by scope (hummingbird-auth),
        // device routes with ownership and tag rules, user-to-user notifications from templates, limits.
        .target(
            name: "PushService",
            dependencies: [
                "Engine", "HubClient", "HTTPServing", "PasswordHashing", "ServiceMetrics", "TokenVerification",
                "PipelineCore", "PipelineConfig", "HubWire", "HubExpressions",
                "RunFlow", "RunStore", "HubHTTP", "PushlineLogging",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
            ], resources: [.embedInCode("openapi.json")]),  // compiled in: the installed binary needs no files
        // OpenTelemetry spans for `run` and `serve` (what PipelineCore records through swift-distributed-tracing), exported over OTLP/HTTP when
        // OTEL_EXPORTER_OTLP_ENDPOINT is set. Only swift-otel and the tracing and lifecycle APIs beneath it.
        .target(
            name: "Telemetry",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Commands, diagnostic printer, reporters. Only swift-argument-parser.
        // `pushline test`: test files beside pipelines, each case run against an emulator in the process (no socket)
        // and a scratch journal, its deliveries and report checked; the emulator's config file reader, which the
        // test files share; a query's tables written as a SQLite file through SQLiteRunStore. Nothing third-party.
        .target(
            name: "PipelineTesting",
            dependencies: [
                "Engine", "HubEmulator", "HubExpressions", "HubHTTP", "HubWire", "PipelineConfig", "PipelineCore",
                "RunFlow", "RowReading", "RunStore", "SQLiteRunStore",
            ]),
        // One C call Swift cannot make (prctl is variadic): the process made non-dumpable, so plugins cannot read it.
        .target(name: "CProcessControl"),
        .target(
            name: "PushlineCLI",
            dependencies: [
                "Engine", "HubClient", "CProcessControl",
                "HubExpressions", "HubWire", "PipelineCore", "PipelineConfig", "RowReading", "BuiltinSteps",
                "HubEmulator", "HubHTTP", "RunStore", "RunFlow", "PushService", "PipelineTesting",
                "PluginProtocol", "PluginStep", "QueryStep", "Telemetry", "HTTPServing", "PushlineLogging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), "ServiceMetrics",
            ]),
        .executableTarget(name: "pushline", dependencies: ["PushlineCLI"]),
        // Pushline as a Swift package: re-exports the Step API and runs the command line with extra steps. Only
        // swift-log (re-exported: a step's logger is swift-log's).
        .target(
            name: "PushlineKit",
            dependencies: [
                "PipelineCore", "BuiltinSteps", "PushlineCLI",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Renders per second on one core, for bench/run.sh; not part of the product.
        .executableTarget(
            name: "RenderBenchmark", dependencies: ["HubExpressions"], path: "Benchmarks/RenderBenchmark"),
        // Items committed per second by each run store, for bench/shards.sh.
        .executableTarget(
            name: "StoreBenchmark", dependencies: ["PipelineCore", "RunStore", "SQLiteRunStore", "PostgresRunStore"],
            path: "Benchmarks/StoreBenchmark"),

        .testTarget(name: "HubExpressionsTests", dependencies: ["HubExpressions"]),
        .testTarget(name: "HubWireTests", dependencies: ["HubWire", "TestSupport"]),
        .testTarget(
            name: "PipelineCoreTests",
            dependencies: [
                "Engine", "PushlineLogging", "PipelineCore", "RunStore", "TestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"), "HubWire",
            ]),
        .testTarget(
            name: "HubClientTests",
            dependencies: [
                "HubClient", "PipelineCore", "HubWire", "PushlineLogging", "TestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]),
        .testTarget(
            name: "PushlineLoggingTests",
            dependencies: ["PushlineLogging", "PipelineCore", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "BatchEngineTests",
            dependencies: [
                "HubClient", "PushlineLogging", "BatchEngine", "PipelineCore", "RunStore", "TestSupport", "HubWire",
            ]),
        .testTarget(
            name: "RowReadingTests", dependencies: ["RowReading", "PipelineCore", "HubWire", "HubExpressions"]),
        .testTarget(
            name: "PipelineConfigTests",
            dependencies: ["Engine", "PipelineConfig", "HubExpressions", "HubWire", "PipelineCore"]),
        .testTarget(
            name: "SignStepTests",
            dependencies: ["PushlineLogging", "SignStep", "PipelineCore", "HubWire", "TestSupport"]),
        .testTarget(
            name: "RenderStepTests",
            dependencies: ["PushlineLogging", "RenderStep", "PipelineCore", "HubExpressions", "HubWire", "TestSupport"]),
        // Diagnostic fixtures run the whole offline stack (loader + real steps), so they live here.
        .testTarget(
            name: "RegisterStepTests",
            dependencies: [
                "Engine", "PushlineLogging", "RegisterStep", "PipelineCore", "RunStore", "TestSupport",
                "HubExpressions", "HubWire",
            ]),
        .testTarget(
            name: "SendStepTests",
            dependencies: [
                "Engine", "HubClient", "PushlineLogging", "SendStep", "CancelStep", "OutcomesStep", "PipelineCore",
                "RunStore", "HubExpressions", "HubWire", "TestSupport",
            ]),
        .testTarget(
            name: "QueryStepTests",
            dependencies: [
                "PushlineLogging", "QueryStep", "PipelineCore", "RunStore", "PostgresRunStore", "CSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio"), "TestSupport",
            ]),
        .testTarget(name: "PluginProtocolTests", dependencies: ["PluginProtocol", "PipelineCore"]),
        // Scripted plugins (Python, standard library only) that behave and misbehave.
        // What tests share: waiting for a process that is not the test's child to end (pidfd).
        .target(
            name: "ProcessTestSupport", dependencies: ["CProcessControl"], path: "Tests/Support/ProcessTestSupport"),
        // What the command and end-to-end suites share: `pushline` run in-process (CommandRunner) or as the real
        // executable (PushlineProcess), golden files, journals on SQLite or PostgreSQL, a private PostgreSQL server, an
        // emulator's scratch folder, an OTLP receiver.
        .target(
            name: "CommandTestSupport",
            dependencies: [
                "PushlineCLI", "RunFlow", "PipelineCore", "HTTPServing", "CSQLite", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/Support/CommandTestSupport"),
        // What tests share: the run journal's ledger in memory, the SAS fixture, the repository's root and scratch folders,
        // the PostgreSQL test server.
        .target(
            name: "TestSupport", dependencies: ["PipelineCore", "RunStore", "HubWire", "PushlineLogging"],
            path: "Tests/Support/TestSupport"),
        .testTarget(
            name: "PluginStepTests",
            dependencies: [
                "PushlineLogging", "PluginStep", "PluginProtocol", "PipelineCore", "RunStore", "ProcessTestSupport",
                .product(name: "Logging", package: "swift-log"), "TestSupport",
            ], exclude: ["Plugins"]),
        .testTarget(
            name: "BuiltinStepsTests", dependencies: ["BuiltinSteps", "PipelineConfig", "Engine", "PipelineCore"],
            exclude: ["Fixtures"]),
        // The client's TLS tests serve HTTPS on loopback with HTTPServing and a local authority's certificate.
        .testTarget(
            name: "HubHTTPTests",
            dependencies: [
                "HubClient", "HubHTTP", "HubWire", "PipelineCore", "HTTPServing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(name: "SQLiteRunStoreTests", dependencies: ["SQLiteRunStore", "RunStore", "PipelineCore"]),
        .testTarget(
            name: "RunFlowTests",
            dependencies: [
                "Engine", "PushlineLogging", "RunFlow", "RunStore", "PipelineCore", "CSQLite", "PipelineConfig",
                "SQLiteRunStore", "HubHTTP", "HubWire",
            ]),
        .testTarget(
            name: "PipelineTestingTests",
            dependencies: [
                "PipelineTesting", "BuiltinSteps", "HubEmulator", "HubWire", "PipelineCore", "RunFlow", "TestSupport",
            ]),
        // The run-store contract: every implementation passes the same suite.
        .testTarget(
            name: "RunStoreTests",
            dependencies: [
                "RunStore", "SQLiteRunStore", "PostgresRunStore", "PipelineCore", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "PostgresRunStoreTests",
            dependencies: ["PostgresRunStore", "RunStore", "PipelineCore", "TestSupport"]),
        // Tests of both servers talk raw HTTP/1.1 through HummingbirdTesting's client, never Pushline's own.
        .testTarget(
            name: "HTTPServingTests",
            dependencies: [
                "HTTPServing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(name: "PasswordHashingTests", dependencies: ["PasswordHashing"]),
        .testTarget(name: "ServiceMetricsTests", dependencies: ["ServiceMetrics"]),
        .testTarget(name: "TokenVerificationTests", dependencies: ["TokenVerification"]),
        .testTarget(
            name: "PushServiceTests",
            dependencies: [
                "PushService", "PipelineConfig", "PipelineCore", "HubEmulator", "HubHTTP", "HubWire", "PasswordHashing",
                "RunFlow", "RunStore", "TokenVerification",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        .testTarget(
            name: "HubEmulatorTests",
            dependencies: [
                "HubEmulator", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), "HubWire",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // Depends on the executable too: end-to-end tests launch the real `pushline` binary.
        .testTarget(
            name: "PushlineCLITests",
            dependencies: [
                "PushlineCLI", "pushline", "CommandTestSupport", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), "BuiltinSteps", "HubEmulator",
                "HubWire", "PipelineConfig", "PipelineCore", "PipelineTesting",
            ],
            exclude: ["Golden", "Inputs"]),
        // The end-to-end suites: the real `pushline` executable against `pushline emulator` (and `serve`, plugins,
        // PostgreSQL) over loopback, as processes; their pipelines and plugins are in Tests/PushlineCLITests/Inputs.
        .testTarget(
            name: "PushlineE2ETests",
            dependencies: [
                "PushlineCLI", "pushline", "CommandTestSupport", "ProcessTestSupport", "TestSupport", "CSQLite",
                "HubWire", "PasswordHashing", "PipelineCore", "RunStore", "SQLiteRunStore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(
            name: "TelemetryTests",
            dependencies: [
                "Telemetry", "PipelineCore",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "PushlineKitTests", dependencies: ["PushlineKit", "PushlineCLI", "RunFlow"]),
        .testTarget(name: "RenderBenchmarkTests", dependencies: ["RenderBenchmark", "HubExpressions"]),
        .testTarget(name: "StoreBenchmarkTests", dependencies: ["StoreBenchmark", "SQLiteRunStore", "RunStore"]),
    ],
    swiftLanguageModes: [.v6]
)

// Two upcoming features for every Swift target, set here once: existentials spelled `any P`, so the cost of a
// protocol type is visible where it is written, and members visible only through modules a file imports itself, so a
// file's imports say what it depends on.
for target in package.targets where target.type != .system && target.type != .binary && target.type != .plugin {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
