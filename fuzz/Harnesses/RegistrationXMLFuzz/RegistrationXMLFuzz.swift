import FuzzSupport
import HubWire

/// Registration descriptions in Atom XML, as the emulator and `pushline registration` read them. Oracle: what
/// parses, written back as a request entry, parses to the same description.
func fuzzOne(_ bytes: [UInt8]) {
    guard let description = try? RegistrationDescription(parsing: String(decoding: bytes, as: UTF8.self)) else {
        return
    }
    guard let again = try? RegistrationDescription(parsing: description.requestEntryXML()) else {
        fatalError("a parsed registration written back does not parse: \(description.requestEntryXML())")
    }
    precondition(
        again.descriptionXML() == description.descriptionXML(), "a parsed registration does not survive writing back")
}
