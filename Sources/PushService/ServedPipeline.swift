import PipelineCore

/// A pipeline the service file lets callers run over HTTP: its file and the parameters it declares (read when the
/// service starts, so a request is checked against them before anything is loaded or run).
public struct ServedPipeline: Sendable {
    /// The name in the URL (`/v1/pipelines/{name}/runs`).
    public let name: String
    /// The pipeline file.
    public let path: String
    /// Its `parameters:`.
    public let parameters: [ParameterDeclaration]

    /// A pipeline by name, file and parameters.
    public init(name: String, path: String, parameters: [ParameterDeclaration]) {
        self.name = name
        self.path = path
        self.parameters = parameters
    }
}
