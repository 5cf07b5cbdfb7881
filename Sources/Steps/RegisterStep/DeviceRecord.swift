import Foundation
import HubWire
import PipelineCore

/// One installation as given (a YAML mapping, a JSON object or a CSV row), before it is checked.
///
/// Every field is optional here because what a device needs depends on the mode: `delete` needs only
/// the id, `put` needs platform and push channel too.
struct DeviceRecord: Sendable, Equatable {
    /// `installationId`.
    var installationId: String?
    /// `platform` as written.
    var platform: String?
    /// `pushChannel`: the PNS handle.
    var pushChannel: String?
    /// `tags`.
    var tags: [String] = []
    /// `userId`.
    var userId: String?
    /// `templates` by name, as NH's installation JSON has them (JSON rows only: an installation read from a hub
    /// writes back whole).
    var templates: [String: InstallationTemplate]?
    /// `pushVariables` (JSON rows only).
    var pushVariables: [String: String]?

    /// The keys a device may have, in the order docs list them.
    static let keys = ["installationId", "platform", "pushChannel", "tags", "userId"]
    /// The keys a JSON row may have: these and an installation's templates and push variables.
    static let jsonKeys = keys + ["templates", "pushVariables"]
    /// Read-only keys of an installation read back from a hub; tolerated in JSON rows so exports load.
    static let readOnlyKeys = ["pushChannelExpired", "expirationTime", "lastActiveOn", "lastUpdate"]
}

extension DeviceRecord: Decodable {
    /// Why a JSON row is not a device, in words for the report.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// Decodes a JSON object strictly: known keys only (read-only ones ignored), strings and a string list.
    init(from decoder: any Decoder) throws {
        guard let object = try? decoder.container(keyedBy: StringCodingKey.self) else {
            throw Problem(message: "each device must be a JSON object")
        }
        for key in object.allKeys
        where !Self.jsonKeys.contains(key.stringValue) && !Self.readOnlyKeys.contains(key.stringValue) {
            let known = Self.jsonKeys.joined(separator: ", ")
            throw Problem(
                message:
                    "unknown key '\(key.stringValue)'\(Suggestion.didYouMean(key.stringValue, in: Self.jsonKeys)) (known keys: \(known))"
            )
        }
        func text(_ name: String) throws -> String? {
            let key = StringCodingKey(name)
            guard object.contains(key), try !object.decodeNil(forKey: key) else { return nil }
            guard let value = try? object.decode(String.self, forKey: key) else {
                let extra = name == "pushChannel" ? " (browser subscriptions are not supported)" : ""
                throw Problem(message: "'\(name)' must be a string\(extra)")
            }
            return value
        }
        installationId = try text("installationId")
        platform = try text("platform")
        pushChannel = try text("pushChannel")
        userId = try text("userId")
        let tagsKey = StringCodingKey("tags")
        if object.contains(tagsKey), try !object.decodeNil(forKey: tagsKey) {
            guard let tags = try? object.decode([String].self, forKey: tagsKey) else {
                throw Problem(message: "'tags' must be a list of strings")
            }
            self.tags = tags
        }
        let templatesKey = StringCodingKey("templates")
        if object.contains(templatesKey), try !object.decodeNil(forKey: templatesKey) {
            do {
                templates = try object.decode([String: InstallationTemplate].self, forKey: templatesKey)
            } catch {
                throw Problem(
                    message: "'templates' must be an object of templates by name, each with a string 'body' "
                        + "(and optional 'headers', 'expiry', 'tags'), as NH's installations have them")
            }
        }
        let variablesKey = StringCodingKey("pushVariables")
        if object.contains(variablesKey), try !object.decodeNil(forKey: variablesKey) {
            guard let variables = try? object.decode([String: String].self, forKey: variablesKey) else {
                throw Problem(message: "'pushVariables' must be an object of strings")
            }
            pushVariables = variables
        }
    }

    /// Decodes one JSON object, or says why it is not a device.
    static func decode(json bytes: some Collection<UInt8>) -> Result<DeviceRecord, Problem> {
        do {
            return .success(try JSONDecoder().decode(DeviceRecord.self, from: Data(bytes)))
        } catch let problem as Problem {
            return .failure(problem)
        } catch {
            return .failure(Problem(message: "not valid JSON"))
        }
    }
}
