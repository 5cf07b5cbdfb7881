import Foundation
import Testing

@testable import SendStep

@Suite struct PropertiesJSONTests {
    /// Characters that JSON escapes or that sort differently by bytes than by `String`'s `<`.
    static let alphabet: [String] = [
        "a", "B", "z", "0", "9", "_", "/", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}",
        "\u{1F}", "\u{7F}", "é", "e\u{301}", "\u{2028}", "😀", "\u{FF61}", " ", "$", "{", "}",
    ]

    @Test func bytesAreWhatJSONEncoderWrites() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var seed: UInt64 = 0x5EED
        func next(_ bound: Int) -> Int {
            // A fixed sequence (xorshift), so a failure replays.
            seed ^= seed << 13
            seed ^= seed >> 7
            seed ^= seed << 17
            return Int(seed % UInt64(bound))
        }
        for _ in 0..<2_000 {
            var properties: [String: String] = [:]
            for _ in 0..<next(6) {
                let key = (0..<next(5)).map { _ in Self.alphabet[next(Self.alphabet.count)] }.joined()
                properties[key] = (0..<next(8)).map { _ in Self.alphabet[next(Self.alphabet.count)] }.joined()
            }
            let expected = Array(try encoder.encode(properties))
            #expect(PropertiesJSON.encode(properties) == expected, "\(properties)")
        }
    }

    @Test func anEmptyMapIsAnEmptyObject() {
        #expect(PropertiesJSON.encode([:]) == Array("{}".utf8))
    }
}
