import HTTPTypes

/// The methods each route template answers, as registered: a request whose path matches a template but not its method
/// is 405 with these in `Allow` (Hummingbird's router answers both cases as not found).
struct AllowedMethods: Sendable {
    /// Path segments, lowercased; nil where the template captures a segment.
    private var templates: [(segments: [String?], methods: [HTTPRequest.Method])] = []

    /// Records that `template` (`/v1/runs/{id}` or `/v1/runs/:id`) answers `method`.
    mutating func add(_ template: String, _ method: HTTPRequest.Method) {
        let segments = Self.split(template).map { segment -> String? in
            segment.hasPrefix(":") || segment.hasPrefix("{") ? nil : segment.lowercased()
        }
        if let index = templates.firstIndex(where: { $0.segments == segments }) {
            templates[index].methods.append(method)
        } else {
            templates.append((segments, [method]))
        }
    }

    /// The methods the template matching `path` answers; nil when none matches. Matched as the router does: segment by
    /// segment, without regard to case, a capture taking any one segment.
    func methods(forPath path: String) -> [HTTPRequest.Method]? {
        let segments = Self.split(path).map { $0.lowercased() }
        return templates.first { template in
            template.segments.count == segments.count
                && zip(template.segments, segments).allSatisfy { expected, actual in
                    expected.map { $0 == actual } ?? true
                }
        }?.methods
    }

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
