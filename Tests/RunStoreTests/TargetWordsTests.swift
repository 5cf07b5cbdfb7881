import RunStore
import Testing

/// `find`'s word match, which both stores use on the targets they read back.
@Suite struct TargetWordsTests {
    @Test("find's whole-word match: a letter, digit, _, - or . next to the text makes it part of another word")
    func holdsWord() {
        #expect(TargetWords.holds("a u0203 b", "u0203"))
        #expect(TargetWords.holds("$UserId:{u0203}", "u0203"))
        #expect(
            !TargetWords.holds("u0203-x", "u0203") && !TargetWords.holds("xu0203", "u0203")
                && !TargetWords.holds("u0203.5", "u0203"))
    }
}
