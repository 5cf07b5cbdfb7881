/// What `RunStore.find` matches, decided in one place for every store: the SQL each store runs only narrows the
/// candidates, and this says which of them match.
package enum FindMatch {
    /// True when `text` is the item's idempotency key in any spelling (`daily-digest/step2:digest-u0203`,
    /// `step2:digest-u0203` or `digest-u0203` for a declared key), its origin, or a whole word of its target.
    package static func matches(_ item: JournalItem, _ text: String) -> Bool {
        let key = item.idempotencyKey ?? ""
        return key == text || key.hasSuffix(":" + text) || key.hasSuffix("/" + text) || item.origin == text
            || TargetWords.holds(item.target ?? "", text)
    }
}
