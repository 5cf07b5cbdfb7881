import HubHTTP
import RunFlow

extension Console {
    /// The certificates hubs' may chain to besides the system's, from `PUSHLINE_CA_FILE`: read before anything is
    /// sent, so a wrong file is a configuration error (exit 78) rather than a TLS failure at every request.
    func hubTrust() throws -> HubTrust {
        do {
            return try HubTrust(environment: environment)
        } catch {
            throw CommandFailure(error.description, exitCode: ExitStatus.configuration)
        }
    }
}
