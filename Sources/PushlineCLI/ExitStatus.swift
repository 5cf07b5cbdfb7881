import ArgumentParser
import Engine
import Foundation
import PipelineCore
import RunFlow

/// Exit codes, documented in docs/troubleshooting.md and in `pushline --help`.
package enum ExitStatus {
    /// Everything succeeded.
    package static let success = RunExit.success
    /// A step failed at run time.
    package static let failure = RunExit.failure
    /// Invalid input: a pipeline, template, expression or command line that is wrong, or an input file
    /// whose check found malformed rows (under `bad-rows: stop`). Nothing was sent.
    package static let invalidInput = RunExit.invalidInput
    /// Partial: every step ran, but some items failed or their fate is unknown.
    package static let partial = RunExit.partial
    /// Every notification was accepted, but their outcomes (`outcomes:`) show no device was reached.
    package static let undelivered = RunExit.undelivered
    /// Another run of the same pipeline holds its lock, or the run store cannot be reached (EX_TEMPFAIL: try
    /// again later).
    package static let locked = RunExit.locked
    /// The run store is set up wrongly (EX_CONFIG): retrying cannot help.
    package static let configuration = RunExit.configuration
    /// Stopped by SIGINT (128 + 2) or SIGTERM (128 + 15); running again resumes.
    package static func interrupted(signal: Int32) -> Int32 { RunExit.interrupted(signal: signal) }

    /// One exit code of a command and what it means there.
    struct Meaning {
        let code: String
        let text: String

        init(_ code: String, _ text: String) {
            self.code = code
            self.text = text
        }

        static let ok = Meaning("0", "success")
        static let usage = Meaning("2", "invalid input (arguments, files); nothing was sent")
        static let hubFailed = Meaning(
            "1", "the hub refused or could not be reached; NH's reason and a hint are printed")
    }

    /// Every code, as the root command lists them.
    static let all: [Meaning] = [
        Meaning("0", "success: every step ran and every item was accepted (or a completed run was not repeated)"),
        Meaning("1", "a step failed while running, or the hub refused a request"),
        Meaning(
            "2", "invalid input (pipeline, template, expression, arguments, malformed input rows); nothing was sent"),
        Meaning("3", "partial: some items failed, are bad or their fate is unknown (see the report)"),
        Meaning(
            "4",
            "undelivered: the hub accepted every notification, but the outcomes a send read show none reached a device"),
        Meaning(
            "75", "another run of this pipeline holds its lock, or the run store cannot be reached now; retry later"),
        Meaning(
            "78",
            "set up wrongly: the run store (a login it rejects, a database that does not exist), or a custom build's steps (two with one id); not worth retrying"
        ),
        Meaning("130", "stopped by SIGINT, 143 by SIGTERM; run the same command again to resume"),
    ]

    /// What to do about each code, for the exit-code reference (docs/reference/exit-codes.md).
    static let whatToDo: [String: String] = [
        "0": "nothing",
        "1": "read the failed step's reason and hint in the report; a hub that refused the key or the hub name needs "
            + "the connection string fixed; run the same command again to finish the run (nothing is sent twice)",
        "2":
            "fix what the diagnostics name (`file:line:column`); `pushline validate` checks a pipeline without running it",
        "3": "read the report's failed and unknown items by reason; run again to retry what can be retried; settle "
            + "unknown items with `pushline runs resolve`",
        "4":
            "the devices' channels or the hub's PNS credentials: `pushline runs outcomes` and `pushline devices prune` "
            + "say which; legacy FCM devices need `pushline fcmv1 move`",
        "75":
            "wait and retry (a cron job can simply run again later); `pushline runs list` shows the run holding the lock",
        "78": "fix the run store's settings (`--journal`, `PUSHLINE_JOURNAL`), or rename the step whose id is taken in "
            + "your own build: the message names what is wrong",
        "130": "run the same command again: it resumes where it stopped",
    ]

    /// The EXIT CODES section of a command's help: only the codes it can return, each meaning wrapped to
    /// fit 80 columns with its continuation lines indented under it (ArgumentParser would wrap a long line
    /// back to the first column).
    ///
    /// Every command's configuration, and so this text, is built on every start (ArgumentParser walks the
    /// whole command tree), so it works on bytes: the codes and meanings are ASCII, and splitting and
    /// counting them as Characters was a twentieth of a cold `pushline validate`.
    static func help(_ meanings: [Meaning]) -> String {
        let space = UInt8(ascii: " ")
        let indent = [UInt8](repeating: space, count: 7)
        var bytes = Array("EXIT CODES:".utf8)
        for meaning in meanings {
            var line: [UInt8] = [space, space] + Array(meaning.code.utf8)
            line += [UInt8](repeating: space, count: max(0, 7 - line.count))
            var fresh = true
            for word in meaning.text.utf8.split(separator: space) {
                if !fresh, line.count + 1 + word.count > 78 {
                    bytes.append(UInt8(ascii: "\n"))
                    bytes += line
                    line = indent
                    fresh = true
                }
                if !fresh { line.append(space) }
                line += word
                fresh = false
            }
            bytes.append(UInt8(ascii: "\n"))
            bytes += line
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws the given exit code out of a command.
    static func exit(_ code: Int32) -> ExitCode { ExitCode(code) }

    /// The code a run ends with: its status, or for an interrupted run the signal that stopped it.
    static func of(_ status: RunReport.Status, signal: Int32?) -> Int32 {
        RunExit.of(status, signal: signal)
    }
}
