import HubWire
import PipelineCore
import RunFlow
import RunStore

/// What `fcmv1 move` found and plans, as text or JSON. Tokens are not printed: the ids name the devices.
struct FcmV1Report {
    let plan: FcmV1Move.Plan
    let run: RunRecord
    let applying: Bool

    func print(format: OutputFormat, console: Console) {
        if format == .json {
            console.line(JSONText.encode(json))
            return
        }
        console.line(
            "run \(run.id): \(plan.read) installation\(plan.read == 1 ? "" : "s") read back: \(plan.moves.count) legacy FCM to move, "
                + "\(plan.refused.count) not translatable, \(plan.alreadyFcmV1) on FCM v1 already, \(plan.otherPlatforms) on other platforms, "
                + "\(plan.gone) gone"
                + (plan.expired == 0
                    ? "" : ", \(plan.expired) with an expired channel (not moved: pushline devices prune \(run.id))"))
        if plan.registrations > 0 {
            console.line(
                "\(plan.registrations) registration\(plan.registrations == 1 ? "" : "s") of their own the run wrote \(plan.registrations == 1 ? "is" : "are") not moved: "
                    + "write them again with platform fcmv1 (a register step's registrations, or the app's next registration)"
            )
        }
        for (before, after, notes) in translations {
            console.line("template \(before)")
            console.line("  becomes \(after)")
            for note in notes { console.line("  note: \(note)") }
        }
        for move in plan.moves.prefix(20) {
            let tags = move.moved.tags?.count ?? 0
            let user = move.moved.userId == nil ? "" : ", user id kept"
            let templates =
                move.moved.templates.map { ", templates \($0.keys.sorted().map { "'\($0)'" }.joined(separator: ", "))" }
                ?? ""
            console.line(
                "  move installation \(move.moved.installationId) on hub '\(move.hub)': gcm → fcmv1, \(tags) tag\(tags == 1 ? "" : "s")\(user)\(templates)"
            )
        }
        if plan.moves.count > 20 { console.line("  … and \(plan.moves.count - 20) more (--format json lists all)") }
        for refusal in plan.refused {
            console.line("  not moved: installation \(refusal.id) on hub '\(refusal.hub)': \(refusal.reason)")
        }
        if !plan.legacySteps.isEmpty {
            let steps = plan.legacySteps.sorted().map(String.init).joined(separator: ", ")
            console.line(
                "the pipeline's register step\(plan.legacySteps.count == 1 ? "" : "s") \(steps) wrote these devices as gcm: "
                    + "change its devices' platform to fcmv1 and its templates to FCM v1 ones (pushline fcmv1 translate FILE), "
                    + "or its next run writes them back as gcm")
        }
        if plan.moves.isEmpty {
            console.line("nothing to move")
        } else if !applying {
            console.line("nothing was changed; to move them: pushline fcmv1 move \(run.id) --apply")
        } else {
            console.line(
                "then check delivery: send with `outcomes:` on the send step and read `pushline runs outcomes RUN` (counts under fcmv1)"
            )
        }
    }

    /// Each distinct template body once: before, after and the notes.
    private var translations: [(String, String, [String])] {
        var seen: Set<String> = []
        var result: [(String, String, [String])] = []
        for move in plan.moves {
            for (name, template) in (move.current.templates ?? [:]).sorted(by: { $0.key < $1.key })
            where seen.insert(template.body).inserted {
                result.append(
                    ("'\(name)' \(template.body)", move.moved.templates?[name]?.body ?? "", move.notes[name] ?? []))
            }
        }
        return result
    }

    private var json: ReportValue {
        .object([
            ReportField("run", .string(run.id)),
            ReportField("read", .int(plan.read)),
            ReportField("alreadyFcmV1", .int(plan.alreadyFcmV1)),
            ReportField("otherPlatforms", .int(plan.otherPlatforms)),
            ReportField("gone", .int(plan.gone)),
            ReportField("expired", .int(plan.expired)),
            ReportField("registrationsNotMoved", .int(plan.registrations)),
            ReportField(
                "moves",
                .array(
                    plan.moves.map { move in
                        .object([
                            ReportField("hub", .string(move.hub)),
                            ReportField("installationId", .string(move.moved.installationId)),
                            ReportField("tags", .array((move.moved.tags ?? []).map(ReportValue.string))),
                            ReportField("userId", move.moved.userId.map(ReportValue.string) ?? .null),
                            ReportField(
                                "templates",
                                .object(
                                    (move.moved.templates ?? [:]).sorted(by: { $0.key < $1.key }).map {
                                        name, template in
                                        ReportField(
                                            name,
                                            .object([
                                                ReportField(
                                                    "before", .string(move.current.templates?[name]?.body ?? "")),
                                                ReportField("after", .string(template.body)),
                                                ReportField(
                                                    "notes", .array((move.notes[name] ?? []).map(ReportValue.string))),
                                            ]))
                                    })),
                        ])
                    })),
            ReportField(
                "refused",
                .array(
                    plan.refused.map {
                        .object([
                            ReportField("hub", .string($0.hub)), ReportField("installationId", .string($0.id)),
                            ReportField("reason", .string($0.reason)),
                        ])
                    })),
            ReportField("legacySteps", .array(plan.legacySteps.sorted().map { .int($0) })),
            ReportField("applied", .bool(applying)),
        ])
    }
}
