import PipelineConfig
import PipelineCore

/// Reads a service file and the users file it names, reporting every problem with `file:line:column`.
public enum ServiceLoader {
    /// What a loaded service needs to start.
    public struct Loaded: Sendable {
        /// The settings.
        public let settings: ServiceSettings
        /// The device users, when the file has `users:`.
        public let users: UserDirectory?
    }

    /// The service at `path`, or nil when it has errors (all of them reported to `diagnostics`). `validate` only
    /// warns about unset `${env:}` references, as it does for pipelines; `run` needs them.
    public static func load(path: String, purpose: LoaderOptions.Purpose, environment: [String: String],
                            diagnostics: DiagnosticCollector) -> Loaded? {
        let loader = PipelineLoader(options: LoaderOptions(purpose: purpose, environment: environment))
        guard let file = loader.loadService(path: path, diagnostics: diagnostics),
              let settings = ServiceSettingsDecoder(file: file, diagnostics: diagnostics).decode()
        else { return nil }
        var users: UserDirectory?
        if let usersFile = settings.usersFile {
            users = UserDirectory.load(path: usersFile, identityTagPrefix: settings.identityTagPrefix,
                                       reference: settings.usersFileLocation, diagnostics: diagnostics)
        }
        guard !diagnostics.hasErrors else { return nil }
        return Loaded(settings: settings, users: users)
    }
}
