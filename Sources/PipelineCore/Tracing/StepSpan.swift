/// What a step's span carries: the step, how it ended, its item counts, the notifications it sent and, when it read
/// them, their delivery outcomes. Only values a report shows already, so a span holds no secret.
enum StepSpan {
    /// Values of a list output a span lists at most (a batch has thousands of ids; the count says how many).
    static let listedValues = 20

    /// Sets the step's attributes on `span`: what every step has, then each output the step declares `traced(as:count:)`.
    static func describe(_ record: StepRecord, outputs: StepOutputs?, declared: [OutputSpec], on span: any TraceSpan) {
        span.set("pushline.step.index", .int(record.index))
        span.set("pushline.step.kind", .string(record.step))
        span.set("pushline.step.status", .string(record.status.rawValue))
        span.set("pushline.step.summary", .string(record.summary))
        if let items = record.items {
            span.set("pushline.items.accepted", .int(items.accepted))
            span.set("pushline.items.failed", .int(items.failed))
            span.set("pushline.items.unknown", .int(items.unknown))
        }
        for spec in declared {
            guard let attribute = spec.spanAttribute else { continue }
            switch outputs?[spec.name] {
            case .integer(let value): span.set(attribute, .int(value))
            case .string(let value): span.set(attribute, .string(value))
            case .list(let values, let total) where total > 0:
                span.set(attribute, .strings(Array(values.prefix(listedValues))))
                if let count = spec.spanCountAttribute { span.set(count, .int(total)) }
            default: break
            }
        }
        if record.status == .failed { span.fail(record.summary) }
    }
}
