/// Checks rendered payloads before they are sent (docs §8).
public enum TemplateLint: Sendable {
    /// Checks a rendered payload: well-formed JSON/XML and within `byteLimit` UTF-8 bytes when given.
    public static func check(_ rendered: String, format: TemplateFormat, byteLimit: Int?) -> [LintFinding] {
        check(rendered, format: format, byteLimit: byteLimit, limitName: nil)
    }

    /// Like ``check(_:format:byteLimit:)``; `limitName` (e.g. "apns") names the limit in the message.
    public static func check(
        _ rendered: String, format: TemplateFormat, byteLimit: Int?,
        limitName: String?
    ) -> [LintFinding] {
        let bytes = Array(rendered.utf8)
        var findings: [LintFinding] = []
        switch format {
        case .json:
            do {
                let strings = try JSONScanner.scan(bytes)
                findings += duplicateKeys(strings, in: bytes)
            } catch {
                findings.append(finding(error, in: bytes, prefix: "payload is not valid JSON: "))
            }
        case .xml:
            do {
                _ = try XMLScanner.scan(bytes)
            } catch {
                findings.append(finding(error, in: bytes, prefix: "payload is not well-formed XML: "))
            }
        }
        if let byteLimit, bytes.count > byteLimit {
            let limit = limitName.map { "the \($0) limit" } ?? "the limit"
            findings.append(
                LintFinding(
                    severity: .error,
                    message: "payload is \(bytes.count) bytes; \(limit) is \(byteLimit)"))
        }
        return findings
    }

    private static func finding(_ error: ScanError, in bytes: [UInt8], prefix: String) -> LintFinding {
        let position = SourcePosition(offset: error.offset, in: bytes)
        return LintFinding(
            severity: .error, message: prefix + error.message,
            line: position.line, column: position.column)
    }

    /// Duplicate keys are valid JSON, but which one a push service keeps is undefined.
    private static func duplicateKeys(_ strings: [JSONStringToken], in bytes: [UInt8]) -> [LintFinding] {
        var seen: [Int: Set<[UInt8]>] = [:]
        var findings: [LintFinding] = []
        for token in strings where token.isKey {
            let key = JSONStringDecoder.decode(bytes, token).bytes
            if seen[token.objectID, default: []].insert(key).inserted { continue }
            let position = SourcePosition(offset: token.start - 1, in: bytes)
            findings.append(
                LintFinding(
                    severity: .warning,
                    message: "duplicate key \"\(String(decoding: key, as: UTF8.self))\"",
                    line: position.line, column: position.column))
        }
        return findings
    }
}
