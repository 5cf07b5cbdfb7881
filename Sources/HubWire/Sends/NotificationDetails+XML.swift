extension NotificationDetails {
    /// Prefixes in the order of the DataContract (.NET) followed by the ones only JS knows.
    static let countPrefixesBeforeErrorUri = ["Apns", "Mpns", "Wns", "Gcm", "Adm"]
    static let countPrefixesAfterErrorUri = ["Fcm", "FcmV1", "Baidu", "Browser", "Xiaomi"]

    /// `<NotificationDetails>` in the connect namespace with `xmlns:i`, children in §5.6 order — `NotificationId`,
    /// `Location`, `State`, `EnqueueTime`, `StartTime`, `EndTime`, `NotificationBody`, `Tags`, `TargetPlatforms`,
    /// `Apns/Mpns/Wns/Gcm/AdmOutcomeCounts`, `PnsErrorDetailsUri`, `Fcm/FcmV1/Baidu/Browser/XiaomiOutcomeCounts` —
    /// then counts with other prefixes in name order. Nil fields and absent keys are left out.
    public func xml() -> String {
        var out =
            XMLNamespace.dataContractStartTag("NotificationDetails")
            + XMLText.leaf("NotificationId", notificationId)
        if let location { out += XMLText.leaf("Location", location) }
        out += XMLText.leaf("State", state.rawValue)
        let optional: [(String, String?)] = [
            ("EnqueueTime", enqueueTime), ("StartTime", startTime), ("EndTime", endTime),
            ("NotificationBody", notificationBody), ("Tags", tags), ("TargetPlatforms", targetPlatforms),
        ]
        for case (let name, let value?) in optional { out += XMLText.leaf(name, value) }
        out += Self.countPrefixesBeforeErrorUri.map(countsXML).joined()
        if let pnsErrorDetailsUri { out += XMLText.leaf("PnsErrorDetailsUri", pnsErrorDetailsUri) }
        let known = Set(Self.countPrefixesBeforeErrorUri + Self.countPrefixesAfterErrorUri)
        out += (Self.countPrefixesAfterErrorUri + outcomeCounts.keys.filter { !known.contains($0) }.sorted())
            .map(countsXML).joined()
        return out + "</NotificationDetails>"
    }

    private func countsXML(_ prefix: String) -> String {
        guard let counts = outcomeCounts[prefix] else { return "" }
        let name = prefix + "OutcomeCounts"
        guard !counts.isEmpty else { return "<\(name)/>" }
        let items = counts.map {
            "<Outcome>" + XMLText.leaf("Name", $0.name) + XMLText.leaf("Count", String($0.count)) + "</Outcome>"
        }
        return "<\(name)>" + items.joined() + "</\(name)>"
    }

    /// Reads details leniently (prefixes, whitespace and order do not matter). A missing or unrecognised `State`
    /// reads as `.unknown`; every child named `…OutcomeCounts` is kept under its prefix. Throws for malformed XML,
    /// another root element, a missing `NotificationId`, or a `Count` that is not a whole number.
    public init(parsing xml: String) throws(RegistrationXMLError) {
        let root = try RegistrationXMLError.parse(xml)
        guard root.localName == "NotificationDetails" else {
            throw RegistrationXMLError(message: "Expected <NotificationDetails>, found <\(root.localName)>.")
        }
        guard let id = root.optionalText(of: "NotificationId") else {
            throw RegistrationXMLError(message: "<NotificationDetails> has no NotificationId.")
        }
        self.init(notificationId: id, state: root.trimmedText(of: "State").flatMap(State.init(name:)) ?? .unknown)
        location = root.optionalText(of: "Location")
        enqueueTime = root.optionalText(of: "EnqueueTime")
        startTime = root.optionalText(of: "StartTime")
        endTime = root.optionalText(of: "EndTime")
        notificationBody = root.child("NotificationBody").flatMap { $0.isNil || $0.text.isEmpty ? nil : $0.text }
        tags = root.optionalText(of: "Tags")
        targetPlatforms = root.optionalText(of: "TargetPlatforms")
        pnsErrorDetailsUri = root.optionalText(of: "PnsErrorDetailsUri")
        let suffix = "OutcomeCounts"
        for child in root.children where child.localName.hasSuffix(suffix) && child.localName.count > suffix.count {
            var counts: [OutcomeCount] = []
            for outcome in child.children("Outcome") {
                counts.append(
                    OutcomeCount(
                        name: outcome.trimmedText(of: "Name") ?? "",
                        count: try outcome.count(of: "Count") ?? 0))
            }
            outcomeCounts[String(child.localName.dropLast(suffix.count))] = counts
        }
    }
}
