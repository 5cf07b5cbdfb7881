import RunStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creates the journal's directory and file with private permissions before SQLite opens it.
///
/// The journal names rows, notification ids and errors from a customer's data, so only the user may
/// read it: directories the journal creates are 0700 and the file 0600. SQLite creates its `-wal` and
/// `-shm` files with the database file's permissions, so they follow. Existing directories and files are
/// left as they are; they may be shared on purpose.
enum JournalFiles {
    static func prepare(_ path: String) throws(RunStoreError) {
        guard !path.isEmpty else { throw RunStoreError("the run journal path is empty", kind: .configuration) }
        try createParentDirectories(of: path)
        try createFile(path)
    }

    private static func createParentDirectories(of path: String) throws(RunStoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard components.count > 1 || (path.hasPrefix("/") && !components.isEmpty) else { return }
        components.removeLast()
        var current = path.hasPrefix("/") ? "" : "."
        for component in components {
            current += "/" + component
            if mkdir(current, 0o700) == 0 {
                // mkdir's mode is filtered by the umask; set it exactly.
                chmod(current, 0o700)
                continue
            }
            let code = errno
            guard code == EEXIST else {
                throw RunStoreError(
                    "cannot create directory \(current) for the run journal at \(path): \(describe(code))",
                    kind: .configuration)
            }
        }
    }

    private static func createFile(_ path: String) throws(RunStoreError) {
        // O_EXCL: only a file this call creates gets its mode set; an existing journal is not touched.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            close(descriptor)
            return
        }
        let code = errno
        guard code == EEXIST else {
            throw RunStoreError("cannot create the run journal at \(path): \(describe(code))", kind: .configuration)
        }
    }

    private static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
