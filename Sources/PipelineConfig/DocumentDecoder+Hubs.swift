import HubWire
import PipelineCore

extension DocumentDecoder {
    /// A hub's `rate`: the batch key, for every step and process that talks to the hub.
    static let hubRate = BatchOptions.rate.described(
        "most requests per second to this hub, shared by every batch step and every process using the same journal")

    /// The keys of one hub.
    struct HubKeys: DeclaredOptions {
        /// `connection`.
        @Key(
            .text(
                "connection", required: true,
                "NH connection string, normally ${env:NAME} or ${file:PATH}; never written inline in git"))
        var connection: String?
        /// `hub`.
        @Key(.text("hub", "hub name; defaults to the connection string's EntityPath")) var hub: String?
        /// `endpoint`.
        @Key(.text("endpoint", "base-URL override, e.g. http://127.0.0.1:8080/ for the local emulator")) var endpoint:
            String?
        /// `rate`.
        @Key(DocumentDecoder.hubRate) var rate: Double?

        init() {}
    }

    static var hubKeys: [OptionSpec] { HubKeys.specs }

    func decodeHubs(_ node: ConfigNode?) -> [HubDeclaration] {
        guard
            let entries = sectionEntries(
                node, section: "hubs", example: "sports: { connection: ${env:NH_CONNECTION}, hub: sports-hub }")
        else { return [] }
        return entries.map { decodeHub($0) }
    }

    private func decodeHub(_ entry: ConfigEntry) -> HubDeclaration {
        let reader = OptionReader(
            entry.value, specs: Self.hubKeys, step: nil, what: "hub '\(entry.key)'", diagnostics: diagnostics)
        let keys = HubKeys(reading: reader)
        var connection: ConnectionString?
        if let text = keys.connection, let node = keys.$connection.node, let scalar = node.scalar {
            do {
                connection = try ConnectionString(parsing: text)
            } catch {
                // The message never echoes the value: it may hold the key.
                reader.error(
                    "hub '\(entry.key)': invalid connection string: \(error.message)", at: node, hint: error.hint)
            }
            if !scalar.hasReferences, connection != nil {
                diagnostics.warning(
                    "hub '\(entry.key)': the connection string is written in the pipeline file",
                    at: node.location, hint: "keep secrets out of git: use ${env:NAME} or ${file:PATH}")
            }
        }
        var hubName: String?
        if let text = keys.hub, let node = keys.$hub.node {
            if let problem = NHNames.hubNameProblem(text) {
                reader.error(
                    "hub '\(entry.key)': \(problem)", at: node, hint: "use the hub's name as the Azure portal shows it")
            } else {
                hubName = text
            }
        } else if !reader.contains(keys.$hub.key) {
            hubName = connection?.entityPath
            if let name = hubName, let problem = NHNames.hubNameProblem(name) {
                diagnostics.error(
                    "hub '\(entry.key)': the connection string's EntityPath is not a hub name: \(problem)",
                    at: entry.keyLocation, hint: "add `hub: <hub name>`")
                hubName = nil
            } else if connection != nil, hubName == nil {
                diagnostics.error(
                    "hub '\(entry.key)' needs `hub:` (the connection string has no EntityPath)",
                    at: entry.keyLocation, hint: "add `hub: <hub name>`")
            }
        }
        var endpoint: String?
        if let text = keys.endpoint, let node = keys.$endpoint.node {
            let lowered = text.lowercased()
            let host = lowered.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
            if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !host.isEmpty {
                endpoint = text.hasSuffix("/") ? text : text + "/"
            } else {
                reader.error(
                    "'endpoint' must be an http:// or https:// URL, found \(node.scalar?.quoted ?? "")", at: node,
                    hint: "e.g. http://127.0.0.1:8080/ for the local emulator")
            }
        }
        return HubDeclaration(
            name: entry.key, location: entry.keyLocation, connection: connection, hubName: hubName,
            endpoint: endpoint, rate: keys.rate)
    }
}
