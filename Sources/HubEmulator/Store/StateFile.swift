import Foundation

/// Saves and loads emulator state atomically: write a temporary file, fsync it, rename it over.
///
/// A crash at any point leaves either the old state or the new one, never a torn file.
struct StateFile: Sendable {
    let path: String

    /// The saved snapshot, or nil when the file does not exist yet.
    func load() throws -> EmulatorSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(EmulatorSnapshot.self, from: data)
    }

    /// Writes `snapshot` atomically.
    func save(_ snapshot: EmulatorSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(snapshot)
        // A name of its own per save: two saves at once (the periodic one and the one at shutdown) must not
        // write the same temporary file, or one's rename finds it gone and the emulator exits 1.
        let temporary = path + ".tmp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary])
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
