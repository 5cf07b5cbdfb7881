import PipelineCore
import Tracing

/// What a step's span carries: the step, how it ended, its item counts, the notifications it sent and, when it read
/// them, their delivery outcomes. Only values a report shows already, so a span holds no secret.
enum StepSpan {
    /// Values of a list output a span lists at most (a batch has thousands of ids; the count says how many).
    static let listedValues = 20

    /// Sets the step's attributes on `span`: what every step has, then each output the step declares `traced(as:count:)`.
    static func describe(_ record: StepRecord, outputs: StepOutputs?, declared: [OutputSpec], on span: any Span) {
        span.attributes["pushline.step.index"] = record.index
        span.attributes["pushline.step.kind"] = record.step
        span.attributes["pushline.step.status"] = record.status.rawValue
        span.attributes["pushline.step.summary"] = record.summary
        if let items = record.items {
            span.attributes["pushline.items.accepted"] = items.accepted
            span.attributes["pushline.items.failed"] = items.failed
            span.attributes["pushline.items.unknown"] = items.unknown
        }
        for spec in declared {
            guard let attribute = spec.spanAttribute else { continue }
            switch outputs?[spec.name] {
            case .integer(let value): span.attributes[attribute] = value
            case .string(let value): span.attributes[attribute] = value
            case .list(let values, let total) where total > 0:
                span.attributes[attribute] = Array(values.prefix(listedValues))
                if let count = spec.spanCountAttribute { span.attributes[count] = total }
            default: break
            }
        }
        if record.status == .failed { span.setStatus(SpanStatus(code: .error, message: record.summary)) }
    }
}
