/// How `pushline runs resolve` settles an item of unknown fate.
package enum Resolution: String, Sendable, CaseIterable {
    /// Checked and found delivered: the item counts as accepted (and its key as sent).
    case delivered
    /// Not delivered (or not worth the doubt): the next start of the run sends it again.
    case resend
}
