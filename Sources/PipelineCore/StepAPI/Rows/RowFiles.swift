/// Copies of `for-each` files that a run reads in place of the files themselves: the rows a run first read, kept
/// with it in the run store, so a resumed run (or another part of a split run) reads those rows even when the file
/// has changed since. The run sets them around its steps; `RowSource.open` reads a copy when one is set for its path.
public enum RowFiles {
    /// The copy to read for each file path, for the run in progress.
    @TaskLocal public static var copies: [String: String] = [:]

    /// The file to open for `path`: its copy when the run has one, else the file.
    public static func path(of path: String) -> String { copies[path] ?? path }
}
