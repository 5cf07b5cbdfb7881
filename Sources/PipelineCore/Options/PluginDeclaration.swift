/// A `plugins:` entry: a step kind that a child process provides, speaking the plugin protocol on its stdin and
/// stdout. The loader checks the declaration; the plugin host asks the process what it is.
package struct PluginDeclaration: Sendable, Equatable {
    /// The name steps use as their kind (`- crm-segment: { … }`).
    package var name: String
    /// Where the name is declared.
    package var location: SourceLocation
    /// The program (resolved: a path relative to the pipeline made absolute, a bare name found on `PATH`) and its
    /// arguments.
    package var command: [String]
    /// The command as written, for messages.
    package var shownCommand: String
    /// Where `command:` is written.
    package var commandLocation: SourceLocation
    /// The plugin's whole environment: only what `env:` lists, values resolved.
    package var environment: [String: String]
    /// How long one run of the plugin may take, in seconds.
    package var timeout: Int64
    /// The `env:` entries whose values are secrets: those `secret-env:` names, and those whose names say so
    /// (`isSecretName`). Their values are hidden wherever Pushline shows the plugin's words; other values are not.
    package var secretNames: Set<String> = []

    /// The values of the secret `env:` entries.
    package var secretValues: [String] {
        environment.filter { secretNames.contains($0.key) }.map(\.value)
    }

    /// Words that make an `env:` name a secret's without its being listed in `secret-env:` (`CRM_TOKEN`, `API_KEY`,
    /// `DB_PASSWORD`): the name split at `_` and `-`, compared without case.
    package static let secretWords: Set<String> = [
        "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "KEY", "APIKEY", "AUTH", "AUTHORIZATION", "CREDENTIAL",
        "CREDENTIALS",
        "COOKIE", "SIGNATURE", "SAS", "CONNECTION", "DSN", "PRIVATE",
    ]

    /// Whether an `env:` name is a secret's by its words.
    package static func isSecretName(_ name: String) -> Bool {
        name.uppercased().split(whereSeparator: { $0 == "_" || $0 == "-" }).contains {
            secretWords.contains(String($0))
        }
    }

    /// Creates a declaration; the `env:` entries named like secrets are secret.
    package init(
        name: String, location: SourceLocation, command: [String], shownCommand: String,
        commandLocation: SourceLocation,
        environment: [String: String] = [:], timeout: Int64 = PluginDeclaration.defaultTimeout
    ) {
        self.name = name
        self.location = location
        self.command = command
        self.shownCommand = shownCommand
        self.commandLocation = commandLocation
        self.environment = environment
        self.timeout = timeout
        secretNames = Set(environment.keys.filter(Self.isSecretName))
    }

    /// Ten minutes.
    package static let defaultTimeout: Int64 = 600
}
