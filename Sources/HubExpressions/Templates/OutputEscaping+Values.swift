extension OutputEscaping {
    /// The most bytes a `value` of this reference can become in `context` (see ``expansion(in:)``).
    @inline(__always)
    static func bound(_ value: String, shaped transform: ValueTransform, in context: OutputContext) -> Int {
        switch transform {
        case .whole, .prefix: value.utf8.count * expansion(in: context)
        case .ellipsis: value.utf8.count * expansion(in: context) + 3
        case .percentEncoded: value.utf8.count * 3
        }
    }

    /// Shapes a property value per its form and appends it escaped for `context` to a String.
    static func append(
        _ value: String, shaped transform: ValueTransform, in context: OutputContext,
        to out: inout String
    ) {
        out += RenderBuffer.string(bound: bound(value, shaped: transform, in: context)) {
            append(value, shaped: transform, in: context, to: &$0)
        }
    }

    /// Shapes a property value per its form and appends it escaped for `context`.
    @inline(__always)
    static func append(
        _ value: String, shaped transform: ValueTransform, in context: OutputContext,
        to out: inout RenderBuffer
    ) {
        switch transform {
        case .whole:
            append(value[...], in: context, to: &out)
        case .prefix(let length):
            append(prefix(value, length), in: context, to: &out)
        case .ellipsis(let length):
            appendEllipsized(value, length, in: context, to: &out)
        case .percentEncoded:
            // The result is pure unreserved ASCII plus '%', which needs no escaping anywhere.
            appendPercentEncoded(value, to: &out)
        }
    }

    /// The first `length` characters (grapheme clusters, so an emoji or accent is never split).
    @inline(__always)
    static func prefix(_ value: String, _ length: Int) -> Substring {
        // A character takes at least one byte, so a short-enough byte count means no cut is needed.
        if value.utf8.count <= length { return value[...] }
        return value.prefix(length)
    }

    private static func appendEllipsized(
        _ value: String, _ length: Int, in context: OutputContext,
        to out: inout RenderBuffer
    ) {
        if value.utf8.count <= length {
            append(value[...], in: context, to: &out)
            return
        }
        guard let limit = value.index(value.startIndex, offsetBy: length, limitedBy: value.endIndex),
            limit != value.endIndex
        else {
            append(value[...], in: context, to: &out)
            return
        }
        // Fewer than three characters cannot hold text plus "...": keep the total within `length`.
        guard length >= 3 else {
            for _ in 0..<length { out.append(ASCII.dot) }
            return
        }
        append(value.prefix(length - 3), in: context, to: &out)
        out.append("...")
    }

    /// RFC 3986 percent-encoding of the UTF-8 bytes; only `A-Z a-z 0-9 - . _ ~` are kept.
    static func appendPercentEncoded(_ value: String, to out: inout RenderBuffer) {
        for b in value.utf8 {
            if ASCII.isLetter(b) || ASCII.isDigit(b) || b == ASCII.minus || b == ASCII.dot
                || b == ASCII.underscore || b == 0x7E
            {
                out.append(b)
            } else {
                out.append(ASCII.percent)
                out.append(upperHexDigit(b >> 4))
                out.append(upperHexDigit(b & 0xF))
            }
        }
    }

    /// Whether `value` matches the number pattern NH uses for `#(…)` (docs §7.2):
    /// `(0|([1-9][0-9]*))(\.[0-9]+)?((e|E)(\+|-)?[0-9]+)?`. There is no sign: "-5" stays a string.
    static func isBareNumber(_ value: String) -> Bool {
        var utf8 = value.utf8.makeIterator()
        var b = utf8.next()
        guard let first = b, ASCII.isDigit(first) else { return false }
        b = utf8.next()
        if first != ASCII.zero {
            while let d = b, ASCII.isDigit(d) { b = utf8.next() }
        }
        if b == ASCII.dot {
            b = utf8.next()
            guard let d = b, ASCII.isDigit(d) else { return false }
            while let d = b, ASCII.isDigit(d) { b = utf8.next() }
        }
        if let e = b, e | 0x20 == 0x65 {
            b = utf8.next()
            if b == ASCII.plus || b == ASCII.minus { b = utf8.next() }
            guard let d = b, ASCII.isDigit(d) else { return false }
            while let d = b, ASCII.isDigit(d) { b = utf8.next() }
        }
        return b == nil
    }
}
