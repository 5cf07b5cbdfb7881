/// Where the run store last saw a pipeline's file: what tells a pipeline that moved (a new release directory,
/// another mount, another checkout) from an unrelated pipeline that only shares its file name.
package struct PipelineHome: Sendable, Equatable {
    /// The pipeline's name (`PipelineName`).
    package var name: String
    /// The file it was last started from (absolute).
    package var path: String
    /// A digest of that file's text; nil when unknown (a pipeline recorded before names existed).
    package var contentDigest: String?
    /// Whether that file declared the name with `name:`.
    package var declared: Bool
    /// When it was last started (seconds since the Unix epoch).
    package var seenAt: Double

    /// Creates a home.
    package init(name: String, path: String, contentDigest: String?, declared: Bool, seenAt: Double) {
        self.name = name
        self.path = path
        self.contentDigest = contentDigest
        self.declared = declared
        self.seenAt = seenAt
    }
}
