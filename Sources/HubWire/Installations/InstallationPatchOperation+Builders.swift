import Foundation

/// The operations a client writes, built the way the SDKs build them, so paths are escaped and values
/// stringified in one place (`PatchTarget` reads them back on the emulator's side).
extension InstallationPatchOperation {
    /// Sets the push channel (a handle).
    public static func setPushChannel(_ handle: String) -> Self { Self(op: .add, path: "/pushChannel", value: handle) }

    /// Sets the user id.
    public static func setUserId(_ userId: String) -> Self { Self(op: .add, path: "/userId", value: userId) }

    /// Adds one tag (the SDKs send a single tag as the value, so one operation per tag).
    public static func addTag(_ tag: String) -> Self { Self(op: .add, path: "/tags", value: tag) }

    /// Removes one tag.
    public static func removeTag(_ tag: String) -> Self { Self(op: .remove, path: "/tags/" + pointer(tag)) }

    /// Adds or replaces a template, sent as stringified JSON: compact, keys sorted, `/` unescaped.
    public static func addTemplate(_ name: String, _ template: InstallationTemplate) -> Self {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings and string maps always encode.
        let text = (try? encoder.encode(template)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Self(op: .add, path: "/templates/" + pointer(name), value: text)
    }

    /// A JSON-pointer segment (RFC 6901): `~` → `~0`, `/` → `~1`.
    public static func pointer(_ segment: String) -> String {
        segment.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
