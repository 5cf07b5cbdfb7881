extension NotificationDetails {
    /// One platform's outcome counts, with the platform read from the element name.
    public struct PlatformOutcomes: Sendable, Equatable {
        /// The platform; nil for an `…OutcomeCounts` prefix this version does not know.
        public let platform: PushPlatform?
        /// The element's prefix as NH wrote it (`Apns`, `FcmV1`, …).
        public let prefix: String
        /// The counts, in NH's order.
        public let counts: [OutcomeCount]

        /// The total of the outcomes of `kind` on this platform.
        public func count(of kind: PnsOutcome.Kind) -> Int {
            counts.filter { PnsOutcome.kind(of: $0.name, on: platform) == kind }.reduce(0) { $0 + $1.count }
        }
    }

    /// The counts per platform, in the order of `PushPlatform.allCases` (unknown prefixes last, by name).
    public var platformOutcomes: [PlatformOutcomes] {
        outcomeCounts.map {
            PlatformOutcomes(platform: PushPlatform(outcomeCountsPrefix: $0.key), prefix: $0.key, counts: $0.value)
        }
        .sorted { lhs, rhs in
            switch (lhs.platform, rhs.platform) {
            case (let a?, let b?): PushPlatform.allCases.firstIndex(of: a)! < PushPlatform.allCases.firstIndex(of: b)!
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.prefix < rhs.prefix
            }
        }
    }

    /// Outcome counts summed by kind over every platform.
    public var totals: [PnsOutcome.Kind: Int] {
        var totals: [PnsOutcome.Kind: Int] = [:]
        for platform in platformOutcomes {
            for count in platform.counts {
                totals[PnsOutcome.kind(of: count.name, on: platform.platform), default: 0] += count.count
            }
        }
        return totals
    }

    /// `PnsErrorDetailsUri` with the signature of its SAS query (`sig=`) withheld: the link is a blob SAS URL, and a
    /// signature is a secret that must not reach logs or reports.
    public var redactedPnsErrorDetailsUri: String? {
        pnsErrorDetailsUri.map(Self.redactingSignature)
    }

    /// `url` with the value of every `sig` query item replaced by the redaction placeholder.
    static func redactingSignature(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let query = url[url.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false).map {
            item -> String in
            item.lowercased().hasPrefix("sig=") ? "sig=\(Redaction.placeholder)" : String(item)
        }
        return url[...question] + query.joined(separator: "&")
    }
}
