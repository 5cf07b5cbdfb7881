import HubWire

/// Devices whose channel the PNS refuses, as the emulator's config marks them: listed handles, or a share of one
/// platform's devices. Sends count them under the outcome NH reports and deliver nothing to them; an installation
/// among them reads `pushChannelExpired: true` once a send has tried it.
package struct DeadChannelRule: Sendable, Equatable {
    /// Why the PNS refuses the channel.
    package enum Reason: String, Sendable, CaseIterable {
        /// The app was uninstalled or the token replaced: NH counts `ExpiredChannel` (`BadChannel` on FCM v1 and MPNS,
        /// whose metrics fold expired channels into bad ones).
        case expired
        /// The PNS does not know the handle: `BadChannel`.
        case invalid
    }

    /// Which devices.
    package enum Selection: Sendable, Equatable {
        /// These handles, on any platform.
        case handles(Set<String>)
        /// A fraction (0…1) of a platform's devices, picked by a hash of the handle: the same devices every send.
        case share(PushPlatform, Double)
    }

    package var reason: Reason
    package var selection: Selection

    /// Creates a rule. Channel URIs among the handles are kept as the hub keeps channels (`https://some.url/`), so a
    /// rule written either way matches.
    package init(reason: Reason, selection: Selection) {
        self.reason = reason
        if case .handles(let handles) = selection {
            self.selection = .handles(Set(handles.map(ChannelURI.normalized)))
        } else {
            self.selection = selection
        }
    }

    /// True when the rule marks `handle` on `platform`.
    func matches(platform: PushPlatform, handle: String) -> Bool {
        switch selection {
        case .handles(let handles): handles.contains(handle)
        case .share(let ruled, let fraction): ruled == platform && Self.position(of: handle) < fraction
        }
    }

    /// Where `handle` falls in [0, 1): FNV-1a of its bytes, so a share picks the same devices in every run.
    static func position(of handle: String) -> Double {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in handle.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Double(hash % 1_000_000) / 1_000_000
    }

    /// The outcome NH counts for this reason on `platform`.
    func outcome(on platform: PushPlatform) -> String {
        switch (reason, platform) {
        case (.expired, .fcmv1), (.expired, .mpns), (.invalid, _): "BadChannel"
        case (.expired, _): "ExpiredChannel"
        }
    }
}
