import RowReading

/// A short digest of a path, so pipelines with the same file name in different directories lock apart.
enum ContentDigestPrefix {
    static func of(_ text: String) -> String {
        String(RowDigest.of([text]).prefix(10))
    }
}
