import Foundation

extension FilePath {
    /// The absolute path of `program` as a shell would run it: one with a '/' relative to `directory`, a bare name
    /// found in `searchPath` (a `PATH` value; `/usr/local/bin:/usr/bin:/bin` when nil); nil when no executable file is
    /// there.
    public static func executable(_ program: String, relativeTo directory: String, searchPath: String?) -> String? {
        let manager = FileManager.default
        if program.contains("/") {
            let path =
                program.hasPrefix("/")
                ? normalize(program)
                : resolve(program, against: URL(fileURLWithPath: directory).standardizedFileURL.path)
            return manager.isExecutableFile(atPath: path) ? path : nil
        }
        for folder in (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            if manager.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
