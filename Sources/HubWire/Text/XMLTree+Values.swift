extension XMLTree {
    /// Trimmed text of a child; nil when the child is absent, `i:nil`, or blank.
    func optionalText(of localName: String) -> String? {
        guard let child = child(localName), !child.isNil else { return nil }
        let text = child.text.trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// A child's whole-number text; nil when the child is absent, an error when it is not a number.
    func count(of localName: String) throws(RegistrationXMLError) -> Int? {
        guard let text = trimmedText(of: localName) else { return nil }
        guard let value = Int(text) else {
            throw RegistrationXMLError(
                message: "<\(localName)> in <\(self.localName)> is not a whole number: '\(text)'.")
        }
        return value
    }
}
