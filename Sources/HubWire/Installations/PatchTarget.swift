/// What an installation JSON-Patch path points at (nh-rest-api.md §3.1).
enum PatchTarget: Equatable {
    case pushChannel
    case userId
    case tags
    case tag(String)
    case template(String)
    case templateBody(String)
    case templateHeaders(String)
    case templateExpiry(String)
    case templateTags(String)
    case templateTag(String, String)

    static let supported =
        "supported paths are /pushChannel, /userId, /tags, /tags/{tag}, /templates/{name} and "
        + "/templates/{name}/body, /headers, /expiry, /tags and /tags/{tag}"

    /// Parses a JSON pointer; property names match case-insensitively, tag and template names exactly.
    init(path: String) throws(PatchProblem) {
        guard path.hasPrefix("/") else { throw PatchProblem("a path must start with '/'; \(Self.supported)") }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(Self.unescape)
        let property = segments[0].lowercased()
        let part = segments.count > 2 ? segments[2].lowercased() : ""
        switch (property, segments.count) {
        case ("pushchannel", 1): self = .pushChannel
        case ("userid", 1): self = .userId
        case ("tags", 1): self = .tags
        case ("tags", 2): self = .tag(try Self.name(segments[1], "tag"))
        case ("templates", 2): self = .template(try Self.name(segments[1], "template name"))
        case ("templates", 3) where part == "body": self = .templateBody(try Self.name(segments[1], "template name"))
        case ("templates", 3) where part == "headers":
            self = .templateHeaders(try Self.name(segments[1], "template name"))
        case ("templates", 3) where part == "expiry":
            self = .templateExpiry(try Self.name(segments[1], "template name"))
        case ("templates", 3) where part == "tags": self = .templateTags(try Self.name(segments[1], "template name"))
        case ("templates", 4) where part == "tags":
            self = .templateTag(try Self.name(segments[1], "template name"), try Self.name(segments[3], "tag"))
        default:
            throw PatchProblem("unknown path; \(Self.supported)")
        }
    }

    private static func name(_ segment: String, _ what: String) throws(PatchProblem) -> String {
        guard !segment.isEmpty else { throw PatchProblem("the \(what) in the path is empty") }
        return segment
    }

    /// RFC 6901: `~1` is `/`, then `~0` is `~`.
    private static func unescape(_ segment: Substring) -> String {
        guard segment.contains("~") else { return String(segment) }
        return segment.split(separator: "~1", omittingEmptySubsequences: false).joined(separator: "/")
            .split(separator: "~0", omittingEmptySubsequences: false).joined(separator: "~")
    }
}
