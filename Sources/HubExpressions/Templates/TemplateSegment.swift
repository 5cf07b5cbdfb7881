/// One step of a compiled template. Rendering walks these in order and only appends.
enum TemplateSegment: Sendable, Equatable {
    /// Output text, already in its final escaped form.
    case literal(String)
    /// A property value shaped and escaped for where it lands.
    case value(PropertyReference, OutputContext)
    /// A JSON `#(…)`: a bare number when the value is one, otherwise a quoted string (quotes included).
    case jsonNumber(PropertyReference)
}
