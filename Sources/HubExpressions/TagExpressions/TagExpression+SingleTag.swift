/// The audience of a personalised send is one tag per row (`$UserId:{u0203}`), parsed a million times on a big run; the
/// general lexer works on `Character`s, which costs several microseconds a tag. An ASCII source that is exactly one
/// valid tag is recognised here on its bytes and gives the same expression the full parse gives; anything else
/// (operators, spaces, non-ASCII, an invalid tag with its error message) goes through the full parse.
extension TagExpression {
    /// Whether `source` is one valid tag, checked as `TagExpressionLexer` and `TagSyntax.diagnose` would.
    static func isSingleValidTag(_ source: String) -> Bool {
        var text = source
        return text.withUTF8 { isSingleValidTag($0) }
    }

    private static func isSingleValidTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= TagSyntax.maxLength else { return false }
        if bytes[0] == ASCII.dollar { return isValidSpecialTag(bytes) }
        return bytes.allSatisfy(isTagByte)
    }

    /// `$UserId:{…}` or `$InstallationId:{…}` (prefix in any case), a non-empty id of tag bytes and `=`, and nothing after
    /// the closing brace.
    private static func isValidSpecialTag(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for prefix in ["$userid:{", "$installationid:{"] {
            let expected = Array(prefix.utf8)
            guard bytes.count > expected.count + 1, zip(bytes, expected).allSatisfy({ lowercased($0) == $1 }) else {
                continue
            }
            let inner = bytes[expected.count..<(bytes.count - 1)]
            return bytes[bytes.count - 1] == ASCII.closeBrace
                && inner.allSatisfy { isTagByte($0) || $0 == ASCII.equals }
        }
        return false
    }

    /// ASCII letters, digits and `_ @ # . : -` (`TagSyntax.isTagCharacter`).
    private static func isTagByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ASCII.zero...ASCII.nine, 0x41...0x5A, 0x61...0x7A: true
        case 0x5F, 0x40, ASCII.hash, ASCII.dot, ASCII.colon, ASCII.minus: true
        default: false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}
