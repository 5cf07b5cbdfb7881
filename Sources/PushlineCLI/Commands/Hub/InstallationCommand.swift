import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow

/// `pushline installation put|get|delete|patch`: manage one installation, as the REST tutorials do by hand.
struct InstallationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "installation",
        abstract: "Create, read, patch or delete an installation on a hub.",
        discussion: """
            EXAMPLES:
              pushline installation put --file device.json
              pushline installation get seed-1
              pushline installation patch seed-1 --add-tag breaking --remove-tag sports
              pushline installation delete seed-1

            \(ExitStatus.help([.ok, .hubFailed, .usage]))
            """,
        subcommands: [Put.self, Get.self, Patch.self, Delete.self])

    struct Put: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "put", abstract: "Create or overwrite an installation from a JSON file.")
        @OptionGroup var hub: HubOptions
        @Option(help: "The installation as JSON (installationId, platform, pushChannel, tags, templates…).")
        var file: String

        func run() async throws {
            let text: String
            do { text = try TextFile.read(file, limit: 1 << 20) } catch {
                throw CommandFailure(error.message(what: "installation file", name: file))
            }
            let installation: Installation
            do {
                installation = try JSONDecoder().decode(Installation.self, from: Data(text.utf8))
            } catch {
                throw CommandFailure("'\(file)' is not an installation: \(Self.reason(error))")
            }
            try await hub.perform(
                { HubRequests.putInstallation(installation, at: $0) },
                saying: "installation '\(installation.installationId)' saved")
        }

        static func reason(_ error: any Error) -> String {
            switch error {
            case DecodingError.keyNotFound(let key, _): return "missing '\(key.stringValue)'"
            case DecodingError.typeMismatch(_, let context):
                return "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
            default: return "not valid JSON"
            }
        }
    }

    struct Get: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print an installation as JSON.")
        @OptionGroup var hub: HubOptions
        @Argument(help: "The installation id.") var id: String

        func run() async throws {
            try await hub.printBody { HubRequests.getInstallation(id: id, at: $0) }
        }
    }

    struct Patch: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "patch", abstract: "Add or remove tags of an installation (JSON-Patch).")
        @OptionGroup var hub: HubOptions
        @Argument(help: "The installation id.") var id: String
        @Option(name: .customLong("add-tag"), help: "A tag to add (repeatable).") var addTags: [String] = []
        @Option(name: .customLong("remove-tag"), help: "A tag to remove (repeatable).") var removeTags: [String] = []

        func validate() throws {
            guard !addTags.isEmpty || !removeTags.isEmpty else {
                throw ValidationError("give --add-tag or --remove-tag")
            }
        }

        func run() async throws {
            let operations =
                addTags.map { InstallationPatchOperation(op: .add, path: "/tags", value: $0) }
                + removeTags.map { InstallationPatchOperation(op: .remove, path: "/tags/\($0)") }
            try await hub.perform(
                { HubRequests.patchInstallation(id: id, operations: operations, at: $0) },
                saying: "installation '\(id)' patched")
        }
    }

    struct Delete: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an installation.")
        @OptionGroup var hub: HubOptions
        @Argument(help: "The installation id.") var id: String

        func run() async throws {
            try await hub.perform(
                { HubRequests.deleteInstallation(id: id, at: $0) }, saying: "installation '\(id)' deleted")
        }
    }
}
