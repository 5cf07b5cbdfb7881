import Foundation
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

    /// The keys a device may have, in the order docs list them.
    static let keys = ["installationId", "platform", "pushChannel", "tags", "userId"]
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
        for key in object.allKeys where !Self.keys.contains(key.stringValue) && !Self.readOnlyKeys.contains(key.stringValue) {
            let known = Self.keys.joined(separator: ", ")
            throw Problem(message: "unknown key '\(key.stringValue)'\(Suggestion.didYouMean(key.stringValue, in: Self.keys)) (known keys: \(known))")
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
