/// One line a plugin writes on stdout, as the host reads it. Every message carries the `id` of the request it answers.
package enum PluginMessage: Sendable, Equatable {
    /// `{"id": 3, "result": {…}}`: the request is done.
    case result(id: Int, PluginValue)
    /// `{"id": 3, "error": {"message": "…", "hint": "…"}}`: the request failed.
    case error(id: Int, message: String, hint: String?)
    /// `{"id": 3, "rows": [{…}, …]}`: rows of a run, in order, before its result.
    case rows(id: Int, [PluginValue])
    /// `{"id": 3, "progress": {"done": 200, "total": 1000}}`: how far a run is (total may be absent).
    case progress(id: Int, done: Int, total: Int?)

    /// The id the message carries.
    package var id: Int {
        switch self {
        case .result(let id, _), .error(let id, _, _), .rows(let id, _), .progress(let id, _, _): id
        }
    }

    /// Reads one line: a JSON object with an integer `id` and exactly one of `result`, `error`, `rows`, `progress`.
    /// An error quotes the start of the line as `shown` makes it (the host hides the plugin's secrets before it cuts).
    package static func parse(_ line: String, shown: (String) -> String = { $0 }) throws(PluginProtocolError)
        -> PluginMessage
    {
        let value: PluginValue
        do {
            value = try PluginValue.parse(line)
        } catch {
            throw PluginProtocolError("a line is not JSON: \(PluginValue.excerpt(shown(line)))", hint: error.hint)
        }
        guard case .object(let fields) = value else {
            throw PluginProtocolError(
                "a line is not a JSON object: \(PluginValue.excerpt(shown(line)))",
                hint: "each stdout line is one message object")
        }
        guard case .integer(let id)? = fields["id"] else {
            throw PluginProtocolError(
                "a message has no integer \"id\": \(PluginValue.excerpt(shown(line)))",
                hint: "echo the id of the request the message answers")
        }
        let kinds = ["result", "error", "rows", "progress"].filter { fields[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw PluginProtocolError(
                "message \(id) must have exactly one of \"result\", \"error\", \"rows\" or \"progress\"\(kinds.isEmpty ? "" : ", it has \(kinds.joined(separator: " and "))")",
                hint: "send rows and progress in messages of their own, then one result or error")
        }
        switch kind {
        case "result":
            guard case .object = fields["result"] else {
                throw PluginProtocolError("the \"result\" of message \(id) must be an object")
            }
            return .result(id: id, fields["result"]!)
        case "error":
            guard let message = fields["error"]?["message"]?.string, !message.isEmpty else {
                throw PluginProtocolError(
                    "the \"error\" of message \(id) needs a \"message\" (text)",
                    hint: "write {\"message\": \"what went wrong\", \"hint\": \"what to do\"}")
            }
            return .error(id: id, message: message, hint: fields["error"]?["hint"]?.string)
        case "rows":
            guard case .array(let rows)? = fields["rows"] else {
                throw PluginProtocolError("the \"rows\" of message \(id) must be a list of objects")
            }
            return .rows(id: id, rows)
        default:
            guard case .integer(let done)? = fields["progress"]?["done"] else {
                throw PluginProtocolError("the \"progress\" of message \(id) needs \"done\" (an integer)")
            }
            if case .integer(let total)? = fields["progress"]?["total"] {
                return .progress(id: id, done: done, total: total)
            }
            return .progress(id: id, done: done, total: nil)
        }
    }
}
