/// Collects an element's character data, remembering whether it was CDATA (see `XMLTree.text`).
struct XMLTextCollector {
    private var all = ""
    private var cdataOnly = ""
    private var sawCDATA = false
    private var otherTextIsBlank = true

    mutating func append(_ text: String, isCDATA: Bool) {
        all += text
        if isCDATA {
            cdataOnly += text
            sawCDATA = true
        } else if text.contains(where: { !$0.isWhitespace }) {
            otherTextIsBlank = false
        }
    }

    var result: String {
        sawCDATA && otherTextIsBlank ? cdataOnly : all
    }
}
