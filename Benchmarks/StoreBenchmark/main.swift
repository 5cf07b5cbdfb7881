import Foundation
import PostgresRunStore
import RunStore
import SQLiteRunStore

// Items committed per second by a run store (issue #18), for bench/shards.sh: the journal traffic of a batch
// send without the sends (StoreWorkload). Each round is a fresh run of ITEMS items; the median round is
// reported, as JSON on the last line so the script can read it. The password of a postgres:// URL comes from
// PGPASSWORD or the URL and is never printed.
//
//   StoreBenchmark --journal PATH|postgres://… [--items N] [--rounds R] [--group G]
//
// --group is the items marked per transaction (8, the runner's group at concurrency 16; 1 for every item alone).

var journal: String?
var items = 5000
var rounds = 3
var group = 8
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--journal": journal = arguments.next()
    case "--items": items = arguments.next().flatMap(Int.init) ?? items
    case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
    case "--group": group = arguments.next().flatMap(Int.init) ?? group
    default:
        FileHandle.standardError.write(
            Data("usage: StoreBenchmark --journal PATH|postgres://… [--items N] [--rounds R] [--group G]\n".utf8))
        exit(2)
    }
}
guard let journal else {
    FileHandle.standardError.write(Data("StoreBenchmark: --journal is required\n".utf8))
    exit(2)
}

do {
    let environment = ProcessInfo.processInfo.environment
    let store: any RunStore
    let kind: String
    if PostgresLocation.isURL(journal) {
        guard let opened = try await PostgresStore.open(journal, environment: environment) else {
            throw BenchFailure("no store")
        }
        store = opened
        kind = "postgresql"
    } else {
        store = try Journal(path: journal)
        kind = "sqlite"
    }
    var measurements: [StoreWorkload.Measurement] = []
    for round in 1...max(1, rounds) {
        let measurement = try await StoreWorkload(store: store, group: group).measure(
            items: items, pipeline: "/bench/store-\(round).yaml")
        measurements.append(measurement)
        print(
            "\(kind) round \(round): \(Int(measurement.itemsPerSecond)) items/s, "
                + String(format: "%.0f", measurement.cpuMicrosecondsPerItem) + " µs CPU per item")
    }
    await store.close()
    let median = measurements.sorted { $0.itemsPerSecond < $1.itemsPerSecond }[measurements.count / 2]
    print(
        #"{"store":"\#(kind)","group":\#(group),"items":\#(items),"items_per_s":\#(Int(median.itemsPerSecond)),"cpu_us_per_item":\#(Int(median.cpuMicrosecondsPerItem))}"#
    )
} catch {
    FileHandle.standardError.write(Data("StoreBenchmark: \(error)\n".utf8))
    exit(1)
}
