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

    /// Creates a declaration.
    package init(name: String, location: SourceLocation, command: [String], shownCommand: String, commandLocation: SourceLocation,
                environment: [String: String] = [:], timeout: Int64 = PluginDeclaration.defaultTimeout) {
        self.name = name
        self.location = location
        self.command = command
        self.shownCommand = shownCommand
        self.commandLocation = commandLocation
        self.environment = environment
        self.timeout = timeout
    }

    /// Ten minutes.
    package static let defaultTimeout: Int64 = 600
}
