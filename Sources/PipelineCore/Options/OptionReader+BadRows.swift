extension OptionReader {
    /// Reads `bad-rows:`; the default is `stop`.
    public func badRowPolicy() -> BadRowPolicy {
        guard contains("bad-rows"), let value = oneOf("bad-rows", BadRowPolicy.allCases.map(\.rawValue)) else { return .stop }
        return BadRowPolicy(rawValue: value) ?? .stop
    }
}
