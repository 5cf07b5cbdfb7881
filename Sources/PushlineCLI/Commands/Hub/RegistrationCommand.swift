import ArgumentParser
import Foundation
import HubWire
import PipelineCore
import RunFlow

/// `pushline registration upsert|get|delete`: the notify-users tutorial's backend calls, by hand.
struct RegistrationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "registration",
        abstract: "Create or update, read, or delete a registration on a hub.",
        discussion: """
            EXAMPLES:
              pushline registration upsert --platform apns --handle 62BCD348… --tags username:alice
              pushline registration get 7260336227650468927-4200236381151834034-1
              pushline registration delete 7260336227650468927-4200236381151834034-1

            \(ExitStatus.help([.ok, .hubFailed, .usage]))
            """,
        subcommands: [Upsert.self, Get.self, Delete.self])

    struct Upsert: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "upsert",
            abstract:
                "Create or update a registration and print its id (a new id when none is given; 410 Gone gets a fresh id once)."
        )
        @OptionGroup var hub: HubOptions
        @Option(help: "Platform: apns, fcmv1, gcm or wns.") var platform: String
        @Option(help: "The PNS handle (device token, FCM token, WNS channel URI).") var handle: String
        @Option(help: "Comma-separated tags.") var tags: String?
        @Option(help: "A template body file: makes this a template registration.") var template: String?
        @Option(help: "An existing registration id to update.") var id: String?

        func run() async throws {
            let console = Console.current
            guard let push = PushPlatform(caseInsensitive: platform),
                let kind = RegistrationDescription.Kind(platform: push)
            else {
                throw CommandFailure("unknown platform '\(platform)'; use apns, fcmv1, gcm or wns")
            }
            let tagList = (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            var body: String?
            if let template {
                do { body = try TextFile.read(template, limit: 256 * 1024) } catch {
                    throw CommandFailure(error.message(what: "template file", name: template))
                }
            }
            let description = RegistrationDescription(
                kind: kind, isTemplate: body != nil, handle: handle, tags: tagList,
                bodyTemplate: body, templateName: body == nil ? nil : "template")
            try await hub.withClient(console) { client in
                var registrationID: String
                if let id { registrationID = id } else { registrationID = try await newID(client) }
                let upsert = { (id: String) in HubRequests.upsertRegistration(description, id: id, at: client.endpoint)
                }
                if try await client.perform(upsert(registrationID), accepting: [410]).status == 410 {
                    // The id expired or was deleted: the documented recovery is a fresh id and one retry.
                    registrationID = try await newID(client)
                    _ = try await client.perform(upsert(registrationID))
                }
                console.line(registrationID)
            }
        }

        private func newID(_ client: HubClient) async throws -> String {
            let response = try await client.perform(HubRequests.createRegistrationID(at: client.endpoint))
            guard let location = response.header("Location"),
                let id = NotificationLocation.notificationId(fromLocation: location)
            else {
                throw CommandFailure("the hub did not return a registration id (no Location header)")
            }
            return id
        }
    }

    struct Get: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print a registration (Atom XML).")
        @OptionGroup var hub: HubOptions
        @Argument(help: "The registration id.") var id: String

        func run() async throws {
            try await hub.printBody { HubRequests.getRegistration(id: id, at: $0) }
        }
    }

    struct Delete: AsyncParsableCommand, HubCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a registration.")
        @OptionGroup var hub: HubOptions
        @Argument(help: "The registration id.") var id: String

        func run() async throws {
            try await hub.perform(
                { HubRequests.deleteRegistration(id: id, at: $0) }, saying: "registration '\(id)' deleted")
        }
    }
}
