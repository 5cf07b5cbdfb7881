/// A template or a `for-each` text reduced to literal chunks and value operations: what `CompiledTemplate` and
/// `TextTemplate` hold, so rendering does no parsing at all.
struct TemplateProgram: Sendable, Equatable {
    let segments: [TemplateSegment]
    /// Referenced property names as first written, de-duplicated case-insensitively, in order of first use.
    let propertyNames: [String]
    /// The bytes of all literal segments: the fixed part of every render's size.
    let literalBytes: Int

    init(segments: [TemplateSegment], references: [PropertyReference]) {
        self.segments = segments
        var seen = Set<String>()
        propertyNames = references.compactMap { seen.insert($0.key).inserted ? $0.name : nil }
        literalBytes = TemplateSegment.literalBytes(of: segments)
    }

    /// The segments rendered with `properties` in one allocation.
    func render(_ properties: TemplateProperties, numbers: TemplateSegment.NumberStyle) -> String {
        if case .literal(let text)? = segments.first, segments.count == 1 { return text }
        return TemplateSegment.render(segments, literalBytes: literalBytes, properties: properties, numbers: numbers)
    }
}
