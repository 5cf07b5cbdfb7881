import Foundation

/// Path helpers that keep user-given relative paths readable in output.
public enum FilePath {
    /// `relative` resolved against `directory` and normalised lexically (`a/../b` → `b`);
    /// absolute paths are only normalised.
    public static func resolve(_ relative: String, against directory: String) -> String {
        let joined: String
        if relative.hasPrefix("/") || directory.isEmpty || directory == "." {
            joined = relative
        } else {
            joined = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
        }
        return normalize(joined)
    }

    /// `path` as Pushline shows it: relative to the current directory when it lies inside it (the base of the pipeline
    /// path the operator typed, and of every path written in a pipeline), else as it is. One base for every path in
    /// output, so each can be pasted into the same shell.
    public static func shown(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath)
        -> String
    {
        guard path.hasPrefix("/"), currentDirectory.hasPrefix("/") else { return path }
        let base = currentDirectory.hasSuffix("/") ? currentDirectory : currentDirectory + "/"
        return path.hasPrefix(base) && path.count > base.count ? String(path.dropFirst(base.count)) : path
    }

    /// Removes `.` segments and folds `name/..` pairs without touching the file system.
    public static func normalize(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if part == "..", isAbsolute {
                continue
            } else {
                parts.append(part)
            }
        }
        let body = parts.joined(separator: "/")
        if isAbsolute { return "/" + body }
        return body.isEmpty ? "." : body
    }

    /// The directory part of a path (`.` when there is none).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path: its file name.
    public static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }
}
