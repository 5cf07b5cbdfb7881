import Foundation
import HubWire
import Testing

@Suite("RandomID")
struct RandomIDTests {
    @Test("a version 4 UUID in Foundation's upper-case form, different each time")
    func shape() {
        let ids = (0..<1_000).map { _ in RandomID.uuidString() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(50) {
            // Foundation reads it back to the same text: the form is exactly `uuidString`'s.
            #expect(UUID(uuidString: id)?.uuidString == id)
            let characters = Array(id)
            #expect(characters[14] == "4")
            #expect("89AB".contains(characters[19]))
        }
    }
}
