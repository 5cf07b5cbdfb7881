/// What a pipeline is called in the run store: who it is, whatever directory its file is read from.
///
/// A pipeline's runs, its locks, the check for another split still sending and its declared idempotency keys are
/// all filed under this name, so a pipeline read from a new release directory, another container mount or a second
/// operator's checkout is the same pipeline. The name is the file's top-level `name:`, else the file's name without
/// its extension (`pipelines/daily-digest.yaml` is `daily-digest`). The run store remembers where each name was last
/// read from, so two unrelated files that only share a file name are told apart (see `RunFlow`'s start).
package enum PipelineName {
    /// The longest name a pipeline may declare.
    package static let maximumLength = 100

    /// The name a pipeline without `name:` goes by: its file name without the last extension.
    ///
    /// Journals written before pipelines had names are migrated with this same function, so it must not change:
    /// a run recorded under `/srv/app/pipelines/digest.yaml` is the pipeline `digest`.
    package static func fromFile(_ path: String) -> String {
        let file = FilePath.lastComponent(of: path)
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file.isEmpty ? "pipeline" : file }
        return String(file[..<dot])
    }

    /// Why `name` cannot be a declared name, or nil when it can: letters, digits, `.`, `_` and `-`, starting with a
    /// letter or digit, at most `maximumLength` characters. (`/` and `:` stay out: a declared idempotency key is filed
    /// as `name/step2:key`, and a lock file is named after the name.)
    package static func problem(with name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.count > maximumLength { return "is longer than \(maximumLength) characters" }
        guard let first = name.utf8.first, isAlphanumeric(first) else { return "must start with a letter or a digit" }
        if let bad = name.unicodeScalars.first(where: {
            !($0.isASCII && (isAlphanumeric(UInt8($0.value)) || "._-".unicodeScalars.contains($0)))
        }) {
            return "has '\(bad)'; use letters, digits, '.', '_' and '-'"
        }
        return nil
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
