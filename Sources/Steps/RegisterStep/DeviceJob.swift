import Foundation
import HubWire
import PipelineCore
import RowReading

/// The requests for one device, prepared offline; the hub's endpoint is added when the step runs.
enum DeviceJob: Sendable, Equatable {
    /// `PUT installations/{id}`.
    case put(Installation)
    /// `PATCH installations/{id}` with JSON-Patch operations.
    case patch(id: String, operations: [InstallationPatchOperation])
    /// `DELETE installations/{id}`.
    case delete(id: String)
    /// `POST registrationIDs` when needed, then `PUT registrations/{id}`.
    case register(RegistrationJob)
    /// `DELETE registrations/{id}`.
    case deleteRegistration(id: String)
}

/// A job with what the report calls it and where it came from.
struct DeviceWork: Sendable, Equatable {
    /// The installation id, or the registration id or handle.
    let device: String
    /// `file:line` for file rows, so every reason about the row names it; nil for YAML devices.
    let origin: String?
    /// What to send.
    let job: DeviceJob
    /// The declared idempotency key as the row rendered it (`for-each` with `idempotency-key`), before scoping.
    var declaredKey: String?
    /// The row's `shard-key` column value.
    var shardValue: String?
}

/// A registration to create or update, as the notify-users tutorial's backend does it.
struct RegistrationJob: Sendable, Equatable {
    /// The description to upsert (native or template).
    let description: RegistrationDescription
    /// An existing registration id; nil to ask the hub for a new one first.
    let id: String?
}

/// One item a device source yields: a device to send, or a row that failed the offline checks.
enum DeviceItem: Sendable, Equatable {
    /// A prepared device.
    case work(DeviceWork)
    /// A row that cannot be sent; its reason already names `file:line`.
    case invalid(device: String, reason: String)
}

extension DeviceWork {
    /// The operation and what it writes, as the item's digest (what identifies its content across attempts)
    /// and its idempotency key read it.
    var contentParts: [String] {
        switch job {
        case .put(let installation): ["put", Self.json(installation)]
        case .patch(let id, let operations): ["patch", id, Self.json(operations)]
        case .delete(let id): ["delete", id]
        case .register(let job): ["register", job.id ?? "", job.description.requestEntryXML()]
        case .deleteRegistration(let id): ["delete-registration", id]
        }
    }

    private static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        // Sorted keys: an installation's templates are a dictionary, whose order changes between processes.
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
