import Foundation
import HubExpressions

// Template renders per second on one core, for bench/run.sh (issue #6). Each workload is timed for
// ROUNDS rounds of about a second each after a warm-up; the median round is reported, as JSON on the
// last line so the script can read it.
//
//   swift run -c release RenderBenchmark [--rounds N] [--seconds S] [--only generic|rich]

var rounds = 5
var seconds = 1.0
var only: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rounds": rounds = arguments.next().flatMap(Int.init) ?? rounds
    case "--seconds": seconds = arguments.next().flatMap(Double.init) ?? seconds
    case "--only": only = arguments.next()  // profile one workload alone
    default:
        FileHandle.standardError.write(
            Data("usage: RenderBenchmark [--rounds N] [--seconds S] [--only generic|rich]\n".utf8))
        exit(2)
    }
}

var results: [String] = []
let workloads = [("generic", try RenderWorkload.generic()), ("rich", try RenderWorkload.richAPNs())]
for (key, workload) in workloads where only == nil || only == key {
    let measurement = RenderMeasurement.measure(workload, rounds: max(1, rounds), seconds: seconds)
    print(
        "\(workload.name): \(Int(measurement.median).formatted()) renders/s (median of \(measurement.rates.count); "
            + "\(workload.template.source.utf8.count) B template, \(workload.template.render(workload.properties).utf8.count) B payload)"
    )
    results.append(
        #"{"workload":"\#(workload.name)","renders_per_s":\#(Int(measurement.median)),"template_bytes":\#(workload.template.source.utf8.count)}"#
    )
}
print("[" + results.joined(separator: ",") + "]")
