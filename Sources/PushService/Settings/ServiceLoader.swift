import PipelineConfig
import PipelineCore
import RunFlow
import TokenVerification

/// Reads a service file and the users file it names, reporting every problem with `file:line:column`.
package enum ServiceLoader {
    /// What a loaded service needs to start.
    package struct Loaded: Sendable {
        /// The settings.
        package let settings: ServiceSettings
        /// The device users, when the file has `users:`.
        package let users: UserDirectory?
        /// The pipelines it lets callers run, checked as `validate` checks them.
        package let pipelines: [ServedPipeline]
        /// The Bearer token checker, when the file has `jwt:`.
        package let bearer: BearerTokens?
    }

    /// The service at `path`, or nil when it has errors (all of them reported to `diagnostics`). `validate` only
    /// warns about unset `${env:}` references, as it does for pipelines; `run` needs them.
    package static func load(
        path: String, purpose: LoaderOptions.Purpose, environment: [String: String],
        diagnostics: DiagnosticCollector
    ) async -> Loaded? {
        let loader = PipelineLoader(options: LoaderOptions(purpose: purpose, environment: environment))
        guard let file = loader.loadService(path: path, diagnostics: diagnostics),
            let settings = ServiceSettingsDecoder(file: file, diagnostics: diagnostics).decode()
        else { return nil }
        var users: UserDirectory?
        if let usersFile = settings.usersFile {
            users = UserDirectory.load(
                path: usersFile, identityTagPrefix: settings.identityTagPrefix,
                reference: settings.usersFileLocation, diagnostics: diagnostics)
        }
        // Each pipeline is checked now, as `validate` would (values come with each request), so a broken one stops
        // the service from starting rather than failing its first caller.
        var pipelines: [ServedPipeline] = []
        var quiet = Console.current.writing(out: { _ in }, err: { _ in })
        quiet.environment = environment
        for (name, path) in settings.pipelines.sorted(by: { $0.key < $1.key }) {
            let loaded = await LoadedPipeline.load(path, purpose: .validate, console: quiet, environment: environment)
            loaded.diagnostics.forEach(diagnostics.report)
            if loaded.document == nil, !loaded.diagnostics.hasErrors {
                diagnostics.error(
                    "pipeline '\(name)' cannot be read from '\(path)'", at: settings.pipelineLocations[name])
            }
            pipelines.append(ServedPipeline(name: name, path: path, parameters: loaded.document?.parameters ?? []))
        }
        var bearer: BearerTokens?
        if let bearerSettings = settings.bearer, !diagnostics.hasErrors {
            do {
                bearer = try await BearerTokens.make(bearerSettings)
            } catch {
                diagnostics.error("service.jwt: \(error.message)", at: settings.bearerLocation)
            }
        }
        guard !diagnostics.hasErrors else { return nil }
        return Loaded(settings: settings, users: users, pipelines: pipelines, bearer: bearer)
    }
}
