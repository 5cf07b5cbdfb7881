/// What a step's span carries: the step, how it ended, its item counts, the notifications it sent and, when it read
/// them, their delivery outcomes. Only values a report shows already, so a span holds no secret.
enum StepSpan {
    /// Outputs a step span carries when the step has them (counts and the outcome summary).
    static let carriedOutputs = ["accepted", "failed", "unknown", "outcome-state", "delivered", "not-delivered", "dead-channels"]
    /// Notification ids a span lists at most (a batch has thousands; the count says how many).
    static let listedIds = 20

    static func describe(_ record: StepRecord, outputs: StepOutputs?, on span: any TraceSpan) {
        span.set("pushline.step.index", .int(record.index))
        span.set("pushline.step.kind", .string(record.step))
        span.set("pushline.step.status", .string(record.status.rawValue))
        span.set("pushline.step.summary", .string(record.summary))
        if let items = record.items {
            span.set("pushline.items.accepted", .int(items.accepted))
            span.set("pushline.items.failed", .int(items.failed))
            span.set("pushline.items.unknown", .int(items.unknown))
        }
        for name in carriedOutputs {
            switch outputs?[name] {
            case .integer(let value): span.set("pushline.output.\(name)", .int(value))
            case .string(let value): span.set("pushline.output.\(name)", .string(value))
            default: break
            }
        }
        if case .list(let ids, let total) = outputs?["notification-ids"], total > 0 {
            span.set("nh.notification.ids", .strings(Array(ids.prefix(listedIds))))
            span.set("nh.notification.count", .int(total))
        }
        if record.status == .failed { span.fail(record.summary) }
    }
}
