import Foundation
import HubWire

/// What the emulator serves: a namespace, its tier, hubs with access policies, and injected faults.
package struct EmulatorConfiguration: Sendable, Equatable {
    /// NH pricing tiers; some features exist on Standard only.
    package enum Tier: String, Sendable, CaseIterable {
        /// Free: no per-message telemetry, no scheduled sends, no direct batch.
        case free
        /// Basic: no per-message telemetry, no scheduled sends.
        case basic
        /// Standard: everything.
        case standard
    }

    /// One hub and its policies.
    package struct Hub: Sendable, Equatable {
        /// The hub name (the first path segment(s) of every request).
        package var name: String
        /// Access policies (name, key text, rights).
        package var policies: [AccessPolicy]

        /// Creates a hub.
        package init(name: String, policies: [AccessPolicy]) {
            self.name = name
            self.policies = policies
        }
    }

    /// The namespace: tokens signed for `https://<namespace>.servicebus.windows.net/…` are accepted.
    package var namespace: String
    /// The tier.
    package var tier: Tier
    /// The hubs.
    package var hubs: [Hub]
    /// Faults injected into matching requests.
    package var faults: [FaultRule]
    /// Which requests a fault with a rate below 1 hits.
    package var faultDice = FaultDice.system
    /// Seconds of clock skew allowed when checking token expiry (NH behaviour unconfirmed; default 0).
    package var clockSkew: Int64
    /// Seconds the emulator's clock runs ahead of this machine's (negative: behind). It dates tokens'
    /// expiry checks, the `Date` header and scheduled sends, so operators can rehearse a skewed clock.
    package var clockOffset: Int64
    /// Time added before answering matching requests; nil for none.
    package var latency: LatencyRule?
    /// Devices whose channel the PNS refuses.
    package var deadChannels: [DeadChannelRule]
    /// Seconds a notification's telemetry stays `Enqueued`, then `Processing`, before its outcome is final.
    package var telemetryDelay: Double

    /// Creates a configuration.
    package init(
        namespace: String, tier: Tier = .standard, hubs: [Hub], faults: [FaultRule] = [], clockSkew: Int64 = 0,
        clockOffset: Int64 = 0, latency: LatencyRule? = nil, deadChannels: [DeadChannelRule] = [],
        telemetryDelay: Double = 2
    ) {
        self.latency = latency
        self.deadChannels = deadChannels
        self.telemetryDelay = telemetryDelay
        self.namespace = namespace
        self.tier = tier
        self.hubs = hubs
        self.faults = faults
        self.clockSkew = clockSkew
        self.clockOffset = clockOffset
    }

    /// One hub `myhub` in namespace `local` with freshly generated Full and Listen keys, as the portal creates.
    package static func standardLocal() -> EmulatorConfiguration {
        EmulatorConfiguration(
            namespace: "local",
            hubs: [
                Hub(
                    name: "myhub",
                    policies: [
                        AccessPolicy(
                            name: "DefaultFullSharedAccessSignature", key: generateKey(),
                            rights: [.listen, .manage, .send]),
                        AccessPolicy(name: "DefaultListenSharedAccessSignature", key: generateKey(), rights: [.listen]),
                    ])
            ])
    }

    /// A 44-character key like the portal's: base64 of 32 random bytes.
    package static func generateKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
    }

    /// The hub whose name prefixes `path` (`/myhub/messages` → myhub), compared case-insensitively.
    func hub(forPath path: Substring) -> (hub: Hub, rest: Substring)? {
        let trimmed = path.drop { $0 == "/" }
        for hub in hubs.sorted(by: { $0.name.count > $1.name.count }) {
            guard trimmed.count >= hub.name.count else { continue }
            let prefix = trimmed.prefix(hub.name.count)
            let rest = trimmed.dropFirst(hub.name.count)
            if prefix.lowercased() == hub.name.lowercased(), rest.isEmpty || rest.first == "/" {
                return (hub, rest.drop { $0 == "/" })
            }
        }
        return nil
    }
}
