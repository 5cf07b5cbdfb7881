extension PushServer {
    /// The OpenAPI 3.1 document of `pushline serve`, served at `/openapi.json`: `openapi.json` beside this file (and
    /// at `api/openapi.json`), compiled into the binary so the installed binary needs no files. A test keeps the
    /// document and the routes in step.
    public static let openAPIDocument = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
