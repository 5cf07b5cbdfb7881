import PipelineCore

/// The keys of a test file, declared once: they are read with them, and the test file's JSON Schema is made of them.
package enum TestFileKeys {
    /// The file's top level.
    struct File: DeclaredOptions {
        @Key(
            .path(
                "pipeline", examples: ["nightly.yaml"],
                "the pipeline under test, relative to this file (default: this file's name without `.test`, or the folder's without `.tests`)"
            )) var pipeline: String?
        @Key(.node(OptionSpec("cases", .list(.mapping(Case.specs)), required: true, "the test cases, run in order")))
        var cases: ConfigNode?

        init() {}
    }

    /// One case: its own keys and those of a run, which its one run takes, or its `runs:` inherit.
    struct Case: DeclaredOptions {
        @Key(.text("name", required: true, "what the case shows (unique in the file; `--run` matches it)"))
        var name: String?
        @Key(
            .node(
                OptionSpec(
                    "devices", .anyOf([.list(.mapping(Device.specs)), .path]),
                    "the installations the hub holds before the first run, in NH's JSON shape (installationId, platform, pushChannel, tags, templates), or a .yaml/.json file of them"
                ))) var devices: ConfigNode?
        @Key(
            .flag(
                "idempotent",
                "run the last run again on the same journal and hub: it must send nothing (exit 0, no delivery)"))
        var idempotent: Bool
        @Key(
            .integer(
                "crash-after", in: 1...1_000_000,
                "run the case again on a fresh hub and journal, cut the last run off as kill -9 would once the hub has taken this many of its requests (the last one's answer lost), and resume it: the devices must receive exactly what they did without the crash"
            )) var crashAfter: Int?
        @Key(
            .flag(
                "snapshot",
                "compare the run's requests and deliveries with the case's snapshot (`pushline test --update` writes it)"
            ))
        var snapshot: Bool
        @Key(
            .node(
                OptionSpec(
                    "runs", .list(.mapping(RunEntry.specs)),
                    "several runs in order on the same journal and hub, each with its own `expect:`; a run's keys not given are the case's"
                ))) var runs: ConfigNode?
        @KeyGroup var run: Run

        init() {}
    }

    /// One entry of `runs:`: a name and a run.
    struct RunEntry: DeclaredOptions {
        @Key(.text("name", "what the report calls the run (default: run 1, run 2, …)")) var name: String?
        @KeyGroup var run: Run

        init() {}
    }

    /// One run: what it is given and what it must come to.
    struct Run: DeclaredOptions {
        @Key(
            .text(
                "now", examples: ["2026-11-29T02:00:00Z"],
                "the time the run starts at (ISO 8601): the pipeline's clock and the hub's move on from it")) var now:
            String?
        @Key(.stringMap("params", examples: ["{ message: Hello }"], "values of the pipeline's `parameters:`"))
        var params: [(key: String, value: String)]
        @Key(
            .stringMap(
                "env", examples: ["{ DIGEST_ROWS: digest.csv }"],
                "the environment `${env:}` reads (the tester's own is not passed on, but PATH, HOME and TMPDIR)"))
        var env: [(key: String, value: String)]
        @Key(
            .node(
                OptionSpec(
                    "rows", .anyValue,
                    "rows by step id, replacing the step's `for-each`: a list of objects, or a .csv, .jsonl or .json file"
                ))) var rows: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "faults", .list(.mapping(EmulatorConfigDecoder.faultSpecs)),
                    "faults the hub injects (as `pushline emulator --config` takes them): { status, rate, retry-after, operations }"
                ))) var faults: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "latency", .mapping(EmulatorConfigDecoder.latencySpecs),
                    "time the hub adds before answering: { delay: 50ms, operations: [send] }"))) var latency:
            ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "tables", .anyValue,
                    "tables by `query` step id, replacing its `database`: { users: [{ user_id: alice, unread: 3 }] } (a SQLite database is made of them)"
                ))) var tables: ConfigNode?
        @Key(
            .stringMap(
                "databases", examples: ["{ unread: fixtures/app.sqlite }"],
                "SQLite files by `query` step id, replacing its `database` (relative to the test file)"))
        var databases: [(key: String, value: String)]
        @Key(
            .node(
                OptionSpec(
                    "mocks", .namedMappings(Mock.specs),
                    "canned results for plugin steps, by step id: the plugin is not run; { rows, outputs } or { error }"
                ))) var mocks: ConfigNode?
        @Key(.flag("again", "run as `--again` does: a fresh run that sends everything again")) var again: Bool
        @Key(.node(OptionSpec("expect", .mapping(Expect.specs), "what the run must come to"))) var expect: ConfigNode?

        init() {}
    }

    /// One mock of a plugin step.
    struct Mock: DeclaredOptions {
        @Key(.node(OptionSpec("rows", .anyValue, "the rows it hands on: a list of mappings of column to value")))
        var rows: ConfigNode?
        @Key(.node(OptionSpec("outputs", .anyValue, "its other outputs, by name: { count: 3 }"))) var outputs:
            ConfigNode?
        @Key(.text("error", "fail the step with this message instead")) var error: String?

        init() {}
    }

    /// `expect:`.
    struct Expect: DeclaredOptions {
        @Key(.integer("exit", in: 0...255, "the exit code `pushline run` would end with")) var exit: Int?
        @Key(
            .text(
                "status", examples: ["succeeded", "already-completed"],
                "the run's status: succeeded, partial, undelivered, failed, interrupted, rejected, or already-completed (the same data had completed; nothing ran)"
            )) var status: String?
        @Key(
            .stringMap("steps", examples: ["{ digest: succeeded, summary: skipped }"], "each step's status, by step id")
        )
        var steps: [(key: String, value: String)]
        @Key(
            .node(
                OptionSpec(
                    "outputs", .anyValue,
                    "step outputs by `step.output` or a path into one (`users.rows.0.userId`): the value each must be"
                ))) var outputs: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "items", .anyValue,
                    "item counts by `step.state` (accepted, failed, unknown, skipped, duplicates, bad, planned)")))
        var items: ConfigNode?
        @Key(.integer("deliveries", in: 0...Int(Int32.max), "notifications delivered in this run, in all"))
        var deliveries: Int?
        @Key(
            .node(
                OptionSpec(
                    "received", .list(.mapping(Received.specs)),
                    "what devices received, in order: every device named here receives exactly what is listed for it")))
        var received: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "received-nothing", .list(.anyOf([.string, .mapping(Audience.specs)])),
                    "installation ids, or { audience: TAG-EXPRESSION } over the hub's devices, that received nothing")))
        var receivedNothing: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "diagnostics", .list(.mapping(ExpectedProblem.specs)),
                    "the diagnostics loading the pipeline gives, as `validate` does (nothing runs; an empty list: none): { line, column, message, severity }"
                ))) var diagnostics: ConfigNode?

        init() {}
    }

    /// One `received:` entry.
    struct Received: DeclaredOptions {
        @Key(.text("device", required: true, "the installation id, registration id or device handle")) var device:
            String?
        @Key(.text("template", "the installation template it was rendered from")) var template: String?
        @Key(.text("platform", "apns, fcmv1, wns, …")) var platform: String?
        @Key(.text("payload", "the whole payload: JSON is compared as JSON, other text as text")) var payload: String?
        @Key(
            .node(
                OptionSpec("includes", .anyValue, "a JSON object the payload contains (other keys may be there too)")))
        var includes: ConfigNode?
        @Key(
            .node(OptionSpec("values", .anyValue, "values at paths into the payload: { aps.alert: Hello }")))
        var values: ConfigNode?
        @Key(.stringMap("headers", examples: ["{ apns-priority: 10 }"], "headers the platform request carried"))
        var headers: [(key: String, value: String)]

        init() {}
    }

    /// `{ audience: … }` in `received-nothing:`.
    struct Audience: DeclaredOptions {
        @Key(.text("audience", required: true, "a tag expression over the hub's devices")) var audience: String?

        init() {}
    }

    /// One expected diagnostic.
    struct ExpectedProblem: DeclaredOptions {
        @Key(.text("message", "text the message contains")) var message: String?
        @Key(.integer("line", in: 1...Int(Int32.max), "the line it is reported at")) var line: Int?
        @Key(.integer("column", in: 1...Int(Int32.max), "the column it is reported at")) var column: Int?
        @Key(.word("severity", ["error", "warning"], default: "error", "error or warning")) var severity: String

        init() {}
    }

    /// An installation, as NH's JSON writes it, or `registration:` and a registration.
    struct Device: DeclaredOptions {
        @Key(.text("installationId", "the installation's id")) var installationId: String?
        @Key(.text("platform", "apns, fcmv1, wns, …")) var platform: String?
        @Key(.text("pushChannel", "the device handle")) var pushChannel: String?
        @Key(.stringList("tags", "its tags")) var tags: [(value: String, node: ConfigNode)]
        @Key(.text("userId", "its user id")) var userId: String?
        @Key(
            .node(
                OptionSpec("templates", .namedMappings(DeviceTemplate.specs), "template name → { body, headers, tags }")
            ))
        var templates: ConfigNode?
        @Key(
            .node(
                OptionSpec(
                    "registration", .mapping(Registration.specs),
                    "a registration instead of an installation: { platform, handle, tags, template }")))
        var registration: ConfigNode?

        init() {}
    }

    /// A registration.
    struct Registration: DeclaredOptions {
        @Key(.text("platform", required: true, "apns, fcmv1, wns, …")) var platform: String?
        @Key(.text("handle", required: true, "the device handle (an APNs token, an FCM token, a channel URI)"))
        var handle: String?
        @Key(.stringList("tags", "its tags")) var tags: [(value: String, node: ConfigNode)]
        @Key(.text("template", "a template body: a template registration (else a native one)")) var template: String?
        @Key(.text("template-name", "the template's name")) var templateName: String?
        @Key(.stringMap("headers", "headers sent with the template (apns-priority, X-WNS-Type, …)")) var headers:
            [(key: String, value: String)]

        init() {}
    }

    /// One template of an installation.
    struct DeviceTemplate: DeclaredOptions {
        @Key(.text("body", required: true, "the template body")) var body: String?
        @Key(.stringMap("headers", "headers sent with it (apns-priority, X-WNS-Type, …)")) var headers:
            [(key: String, value: String)]
        @Key(.stringList("tags", "tags that select this template")) var tags: [(value: String, node: ConfigNode)]

        init() {}
    }

    /// The test file's top-level keys, for its schema.
    package static var specs: [OptionSpec] { File.specs }
}
