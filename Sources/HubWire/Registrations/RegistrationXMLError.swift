/// Why a registration, outcome or telemetry XML document could not be read; an emulator answers 400 with it.
public struct RegistrationXMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// One sentence saying what is wrong, with line and column for malformed XML.
    public let message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    /// Equal to `message`.
    public var description: String { message }
}

extension RegistrationXMLError {
    /// Parses `text`, turning syntax errors into `Malformed XML: …`.
    static func parse(_ text: String) throws(RegistrationXMLError) -> XMLTree {
        do throws(XMLSyntaxError) {
            return try XMLTree.parse(text)
        } catch {
            throw RegistrationXMLError(message: "Malformed XML: \(error.message).")
        }
    }
}
