/// The counts a batch step (`send`'s rows, `register`'s devices) hands on, so a summary reconciles with the step's
/// input: `accepted + failed + unknown + already-sent + bad + skipped = total`.
extension ItemCounts: OutputSet {
    /// The outputs every batch step declares, in this order.
    public static let outputSpecs = [
        OutputSpec(
            "accepted", .integer,
            "items the hub accepted (in a resumed run, those an earlier attempt did too); in a dry run, those it would send, so `when:` decides as the live run would"
        )
        .traced(),
        OutputSpec("failed", .integer, "items the hub refused, or that could not be built").traced(),
        OutputSpec(
            "unknown", .integer,
            "items whose fate is unknown (a timeout after the request was written, or left so by an earlier run): not resent"
        )
        .traced(),
        OutputSpec(
            "already-sent", .integer,
            "items not sent because a run sent the same one (its idempotency key) within the dedupe window"),
        OutputSpec("bad", .integer, "malformed rows, never sent (with `bad-rows: skip`)"),
        OutputSpec(
            "skipped", .integer,
            "items this invocation did not send: another part's rows in a split run, and the good rows of an input refused under `bad-rows: stop`"
        ),
        OutputSpec("total", .integer, "every item the step read: the sum of the six counts above"),
    ]

    /// The values of `outputSpecs`.
    public var outputs: StepOutputs {
        [
            // A dry run's would-be sends count as accepted: a `when:` reading them decides as it would in the live run.
            "accepted": .integer(accepted + skipped + planned), "failed": .integer(failed),
            "unknown": .integer(unknown),
            "already-sent": .integer(duplicates), "bad": .integer(bad), "skipped": .integer(otherShards),
            "total": .integer(total),
        ]
    }
}

extension InputCheck {
    /// What a batch step hands on when this check refused its input (`bad-rows: stop`): nothing sent, the malformed
    /// records `bad`, the good ones `skipped`, all of them `total`, so a summary reconciles with the input.
    public var refusedOutputs: StepOutputs {
        var counts = ItemCounts()
        counts.bad = bad
        var outputs = counts.outputs
        outputs["skipped"] = .integer(records - bad)
        outputs["total"] = .integer(records)
        return outputs
    }
}
