/// How strictly the loader treats things that depend on the environment.
public struct LoaderOptions: Sendable {
    /// `validate` only warns about unresolvable `${env:}`/`${file:}` references (CI may lack the
    /// secrets); `run` needs them, so they are errors.
    public enum Purpose: Sendable { case validate, run }

    /// Why the file is loaded.
    public var purpose: Purpose
    /// The environment `${env:NAME}` reads from.
    public var environment: [String: String]
    /// The values given for the pipeline's `parameters:` (`--param name=value`, a request body), by name.
    public var parameters: [String: String] = [:]
    /// Largest pipeline file accepted, in bytes.
    public var maxFileBytes: Int
    /// Deepest nesting of mappings and lists accepted.
    public var maxDepth: Int
    /// Most nodes a document may expand to (aliases count every time they are used).
    public var maxNodes: Int

    /// Creates options; the limits are far above any real pipeline and far below what hurts.
    public init(
        purpose: Purpose, environment: [String: String], maxFileBytes: Int = 4 << 20, maxDepth: Int = 64,
        maxNodes: Int = 200_000
    ) {
        self.purpose = purpose
        self.environment = environment
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }
}
