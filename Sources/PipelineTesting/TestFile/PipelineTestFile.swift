import Foundation
import HubEmulator
import HubWire
import PipelineCore
import RunFlow
import SQLiteRunStore

/// A test file (`nightly.test.yaml` beside `nightly.yaml`): the pipeline it tests and its cases, in order.
package struct PipelineTestFile: Sendable {
    /// The test file as the user named it.
    package var path: String
    /// The pipeline under test, relative to the current directory or absolute.
    package var pipeline: String
    /// The cases, in file order.
    package var cases: [TestCase]
}

/// One test case: a hub holding some devices, then one run of the pipeline or several in order (the same journal and
/// hub throughout), each with what it must come to.
package struct TestCase: Sendable {
    /// The case's name, unique in its file (`--run` matches it).
    package var name: String
    /// Where the case is written.
    package var location: SourceLocation
    /// The devices the hub holds before the first run.
    package var devices: [TestDevice]
    /// The runs, in order; a case without `runs:` has one.
    package var runs: [TestRun]
    /// Run the last run again on the same journal and hub: it must send nothing.
    package var idempotent: Bool
    /// Cut the last run off after the hub has taken this many of its requests, resume it, and compare what the devices
    /// received with the run that was not cut off.
    package var crashAfter: Int?
    /// Compare the runs' requests and deliveries with the case's snapshot.
    package var snapshot: Bool
}

/// A device the hub holds: an installation in NH's own JSON shape, or a registration.
package struct TestDevice: Sendable {
    /// What the hub holds.
    package enum Kind: Sendable {
        case installation(Installation)
        case registration(RegistrationDescription)
    }

    /// The device.
    package var kind: Kind
    /// Where it is written (a hub that refuses it is reported here).
    package var location: SourceLocation

    /// The installation, when it is one.
    package var installation: Installation? {
        if case .installation(let installation) = kind { installation } else { nil }
    }

    /// How messages name it: its installation id, or its handle.
    package var shown: String {
        switch kind {
        case .installation(let installation): "installation '\(installation.installationId)'"
        case .registration(let registration): "the registration of handle '\(registration.handle)'"
        }
    }
}

/// One run of the pipeline within a case.
package struct TestRun: Sendable {
    /// What the report calls it: `run 2`, or the `name:` given.
    package var label: String
    /// Where it is written.
    package var location: SourceLocation
    /// The time the run starts at (the pipeline's clock and the hub's, moving on from it); nil: now.
    package var now: Date?
    /// `parameters:` values.
    package var parameters: [String: String]
    /// The environment `${env:}` reads (nothing of the tester's own but `PATH`, `HOME` and `TMPDIR`).
    package var environment: [String: String]
    /// Rows that replace a step's `for-each`, by step id.
    package var rows: [RowsOverride]
    /// Faults the hub injects during this run.
    package var faults: [FaultRule]
    /// Latency the hub adds during this run.
    package var latency: LatencyRule?
    /// Databases given to `query` steps in place of their `database`.
    package var databases: [DatabaseOverride] = []
    /// Canned results for plugin steps, by step id.
    package var mocks: [StepMock] = []
    /// `--again`: send everything again.
    package var again: Bool
    /// What the run must come to.
    package var expect: Expectations
}

/// Rows given to a step in place of its `for-each`.
package struct RowsOverride: Sendable {
    /// The step's id.
    package var step: String
    /// Where the rows are given.
    package var location: SourceLocation
    /// The rows: inline objects (written to a JSON Lines file for the run), or a file.
    package var source: Source

    /// Inline rows or a file.
    package enum Source: Sendable {
        /// Rows written in the test file, each an object.
        case inline([JSONValue])
        /// A `.csv`, `.jsonl` or `.json` file, relative to the test file.
        case file(String)
    }
}

/// A database given to a `query` step in place of its `database`.
package struct DatabaseOverride: Sendable {
    /// The step's id.
    package var step: String
    /// Where it is given.
    package var location: SourceLocation
    /// Tables written in the test file, or a SQLite file.
    package var source: Source

    /// Tables or a file.
    package enum Source: Sendable {
        /// Tables written in the test file: a SQLite database is made of them for the run.
        case tables([SQLiteFixture.Table])
        /// A SQLite file, relative to the test file.
        case file(String)
    }
}
