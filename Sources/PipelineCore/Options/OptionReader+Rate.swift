extension OptionReader {
    /// Reads `rate:`, requests per second at most, written as a number (`200`, `0.5`); nil when not
    /// given or after reporting a problem.
    public func rate() -> Double? {
        guard let (text, node) = string("rate") else { return nil }
        guard let rate = Double(text), rate > 0, rate <= 100_000 else {
            error("'rate' must be requests per second, a number above 0 (e.g. 200), found \(node.scalar?.quoted ?? "")", at: node)
            return nil
        }
        return rate
    }
}
