/// The rule for names a pipeline declares and later refers to (step ids, parameters, plugins) and for the keys a
/// plugin declares: ASCII letters, digits, `-` and `_`, at least one.
package enum DeclaredName {
    /// True when `text` follows the rule.
    package static func isValid(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D
                    || $0 == 0x5F
            }
    }
}
