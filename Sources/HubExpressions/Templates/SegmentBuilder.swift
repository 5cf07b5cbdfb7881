/// Collects segments while copying the template source, merging adjacent literal text so a
/// render does as few appends as possible.
struct SegmentBuilder {
    private let source: [UInt8]
    private var pending: [UInt8] = []
    private(set) var segments: [TemplateSegment] = []
    private(set) var references: [PropertyReference] = []

    init(source: [UInt8]) {
        self.source = source
    }

    mutating func copySource(_ start: Int, _ end: Int) {
        if start < end { pending.append(contentsOf: source[start..<end]) }
    }

    mutating func literal(_ text: String) {
        pending.append(contentsOf: text.utf8)
    }

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        segments.append(.literal(String(decoding: pending, as: UTF8.self)))
        pending.removeAll(keepingCapacity: true)
    }

    mutating func value(_ reference: PropertyReference, _ context: OutputContext) {
        flush()
        references.append(reference)
        segments.append(.value(reference, context))
    }

    mutating func jsonNumber(_ reference: PropertyReference) {
        flush()
        references.append(reference)
        segments.append(.jsonNumber(reference))
    }

    /// Emits an expression that replaces a whole value in a container of the given context.
    mutating func expression(_ expression: TemplateExpression, _ context: OutputContext) {
        switch expression {
        case .value(let reference):
            value(reference, context)
        case .number(let reference) where context == .jsonString:
            jsonNumber(reference)
        case .number(let reference):
            value(reference, context)
        case .composite(let parts):
            for part in parts {
                switch part {
                case .literal(let text): literal(context.escaped(text))
                case .value(let reference): value(reference, context)
                }
            }
        }
    }

    mutating func finish() -> [TemplateSegment] {
        flush()
        return segments
    }
}
