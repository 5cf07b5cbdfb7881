import ArgumentParser
import Foundation
import HubExpressions
import HubWire
import PipelineCore
import RunFlow

/// `pushline schedule cancel ID`.
struct ScheduleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Manage scheduled notifications.", subcommands: [Cancel.self])

    struct Cancel: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel", abstract: "Cancel a scheduled notification by its id.",
            discussion: ExitStatus.help([
                .ok,
                .init(
                    "1",
                    "the hub has no such scheduled notification (sent or cancelled already), "
                        + "or refused the request"), .usage,
            ]))
        @OptionGroup var hub: HubOptions
        @Argument(help: "The scheduled notification id (printed by `pushline send --schedule`).") var id: String

        func run() async throws {
            try await hub.perform(
                { HubRequests.cancelScheduled(id: id, at: $0) }, saying: "scheduled notification '\(id)' cancelled")
        }
    }
}
