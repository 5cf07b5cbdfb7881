import Foundation

/// A scratch folder holding `emulator.yaml`: one hub, `myhub`, with its Full policy, and `extra` config lines
/// (dead channels, the telemetry delay). The caller removes the folder.
package func emulatorScratch(_ name: String, extra: String = "telemetry-delay: 1s") throws -> String {
    let directory = NSTemporaryDirectory() + "pushline-\(name)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try """
    namespace: local
    hubs:
      myhub:
        policies:
          DefaultFullSharedAccessSignature: { key: "LocalEmulatorSampleKey0NotASecret0000000000=", rights: [Listen, Manage, Send] }
    \(extra)
    """.write(toFile: directory + "/emulator.yaml", atomically: true, encoding: .utf8)
    return directory
}
