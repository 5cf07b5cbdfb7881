import HubEmulator
import PipelineCore
import RunFlow

/// `received:` and `deliveries:` against what the emulator delivered during a run: every device named receives
/// exactly the notifications listed for it, in order.
struct DeliveryCheck {
    let run: String
    let expect: Expectations
    let deliveries: [Delivery]
    /// The template properties a notification's send carried, by notification id.
    let properties: (String) -> String?

    var failures: [TestFailure] {
        var failures: [TestFailure] = []
        if let count = expect.deliveries, count != deliveries.count {
            failures.append(
                TestFailure(
                    run: run, location: expect.location,
                    message:
                        "\(deliveries.count) notification\(deliveries.count == 1 ? " was" : "s were") delivered, expected \(count)",
                    detail: Self.list(deliveries)))
        }
        var devices: [String] = []
        for entry in expect.received where !devices.contains(entry.device) { devices.append(entry.device) }
        for device in devices {
            let wanted = expect.received.filter { $0.device == device }
            let got = deliveries.filter { $0.reaches(device) }
            if wanted.count != got.count {
                failures.append(
                    TestFailure(
                        run: run, location: wanted[0].location,
                        message:
                            "device '\(device)' received \(got.count) notification\(got.count == 1 ? "" : "s"), expected \(wanted.count)",
                        detail: got.isEmpty ? "it received nothing" : Self.list(got)))
                continue
            }
            for (expected, actual) in zip(wanted, got) { failures += compare(expected, actual) }
        }
        return failures
    }

    private func compare(_ expected: ExpectedDelivery, _ actual: Delivery) -> [TestFailure] {
        var failures: [TestFailure] = []
        let shown = "device '\(expected.device)'"
        // What fed the payload: a failure shows it under the diff.
        let fed = properties(actual.notificationId).map { text in
            "template properties sent: " + (JSONValue(parsing: text)?.compact ?? text)
        }
        func fail(_ message: String, at location: SourceLocation? = nil, detail: String? = nil) {
            let shown = [detail, fed].compactMap { $0 }.joined(separator: "\n")
            failures.append(
                TestFailure(
                    run: run, location: location ?? expected.location, message: message,
                    detail: shown.isEmpty ? nil : shown))
        }
        if let template = expected.template, template != actual.template {
            fail("\(shown) received template \(actual.template.map { "'\($0)'" } ?? "none"), expected '\(template)'")
        }
        if let platform = expected.platform, platform.lowercased() != actual.platform.lowercased() {
            fail("\(shown) was reached on \(actual.platform), expected \(platform)")
        }
        let payload = JSONValue(parsing: actual.payload)
        if let text = expected.payload {
            if let wanted = JSONValue(parsing: text), let payload {
                if !payload.matches(wanted) {
                    fail(
                        "\(shown) received another payload",
                        detail: TextDiff.unified(expected: wanted.pretty, actual: payload.pretty))
                }
            } else if text != actual.payload {
                fail(
                    "\(shown) received another payload",
                    detail: TextDiff.unified(expected: text, actual: actual.payload))
            }
        }
        if let includes = expected.includes {
            if let payload, payload.contains(includes) {
            } else {
                fail(
                    "\(shown)'s payload does not include what is expected",
                    detail: "expected to include:\n\(includes.pretty)\nreceived:\n\(payload?.pretty ?? actual.payload)")
            }
        }
        for value in expected.values {
            let found = payload?.value(at: value.key)
            if !(found?.matches(value.value) ?? false) {
                fail(
                    "\(shown): \(value.key) is \(found?.compact ?? "not there"), expected \(value.value.compact)",
                    at: value.location, detail: "received: \(actual.payload)")
            }
        }
        for header in expected.headers {
            let found = actual.headers.first { $0.key.lowercased() == header.key.lowercased() }?.value
            if found != header.value {
                fail(
                    "\(shown): header \(header.key) is \(found.map { "'\($0)'" } ?? "not there"), expected '\(header.value)'",
                    at: header.location,
                    detail: "headers: "
                        + actual.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
                        .joined(separator: ", "))
            }
        }
        return failures
    }

    /// The deliveries, one line each.
    static func list(_ deliveries: [Delivery]) -> String {
        deliveries.map { delivery in
            let device = delivery.installationId ?? delivery.registrationId ?? delivery.pushChannel
            let template = delivery.template.map { ", template \($0)" } ?? ""
            return "  \(device) (\(delivery.platform)\(template)): \(delivery.payload)"
        }.joined(separator: "\n")
    }
}

extension Delivery {
    /// True when a test's `device` names this delivery's device: its installation id, its registration id or its
    /// handle (a registration's id is the hub's to choose).
    func reaches(_ device: String) -> Bool {
        installationId == device || registrationId == device || pushChannel == device
    }
}
