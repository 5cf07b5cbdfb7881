import HubExpressions
import HubWire
import PipelineCore
import RowReading

/// A `for-each:` send: one request per row, with `$(column)` references in the audience, the direct
/// handles and the template properties taking the row's values.
struct RowPlan: Sendable, Equatable {
    /// Where the rows come from.
    let source: RowSource
    /// Where each row's notification goes.
    enum Target: Sendable, Equatable {
        case audience(TextTemplate)
        case broadcast
        case direct([TextTemplate])
    }

    let target: Target
    /// Property name → value text with references.
    let properties: [String: TextTemplate]
    /// Most requests in flight.
    let concurrency: Int
    /// Requests per second at most; nil for no cap.
    let rate: Double?

    /// Every column the plan reads, as first written, sorted (computed once: a row is checked against it).
    let columns: [String]
    /// `columns` as property lookups fold them, worked out once: every row looks each of them up.
    let foldedColumns: [String]
    /// The properties in the order a template send's JSON body lists them (`PropertiesJSON.ordered`).
    let orderedProperties: [Property]

    /// One property of the plan.
    struct Property: Sendable, Equatable {
        let name: String
        let value: TextTemplate
    }

    init(source: RowSource, target: Target, properties: [String: TextTemplate], concurrency: Int, rate: Double?) {
        self.source = source
        self.target = target
        self.properties = properties
        self.concurrency = concurrency
        self.rate = rate
        var names: [TextTemplate] = Array(properties.values)
        switch target {
        case .audience(let audience): names.append(audience)
        case .direct(let handles): names += handles
        case .broadcast: break
        }
        var seen = Set<String>()
        columns = names.flatMap(\.propertyNames).filter { seen.insert($0.lowercased()).inserted }.sorted()
        foldedColumns = columns.map(TemplateProperties.folded)
        orderedProperties = PropertiesJSON.ordered(properties.keys).map { Property(name: $0, value: properties[$0]!) }
    }

    /// The row's target, or why the row cannot be sent (a tag expression or handle that is invalid
    /// once the row's values are in).
    func target(for row: TemplateProperties, platform: PushPlatform?) -> Result<NotificationTargets, RowProblem> {
        switch target {
        case .broadcast:
            return .success(.broadcast)
        case .audience(let template):
            let text = template.render(row)
            do {
                let expression = try TagExpression(parsing: text)
                if let violation = expression.limitViolation() {
                    return .failure(RowProblem("audience '\(text)' breaks NH's limits: \(violation.message)"))
                }
                return .success(.tags(expression.source))
            } catch {
                return .failure(
                    RowProblem(
                        "audience '\(text)' is not a valid tag expression: \(error.message) (character \(error.column))"
                    ))
            }
        case .direct(let templates):
            let handles = templates.map { $0.render(row) }
            if let platform {
                for handle in handles {
                    if let problem = platform.handleProblem(handle) { return .failure(RowProblem(problem)) }
                }
            }
            return .success(.direct(handles))
        }
    }

    /// The row's properties.
    func properties(for row: TemplateProperties) -> [String: String] {
        properties.mapValues { $0.render(row) }
    }

    /// The row's properties as a template send's JSON body (the step names no template).
    func propertiesJSON(for row: TemplateProperties) -> [UInt8] {
        PropertiesJSON.encode(sorted: orderedProperties.map { ($0.name, $0.value.render(row)) })
    }
}

/// Where one request goes.
enum NotificationTargets: Sendable, Equatable, CustomStringConvertible {
    case tags(String)
    case broadcast
    case direct([String])

    /// As the journal keeps it for `pushline runs find`: the tag expression, `broadcast`, or the handles.
    var description: String {
        switch self {
        case .tags(let expression): expression
        case .broadcast: "broadcast"
        case .direct(let handles): handles.joined(separator: " ")
        }
    }
}

/// Why a row cannot be sent.
struct RowProblem: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
