/// Namespace URIs of the documents NH exchanges; writers use them, the parser ignores them.
enum XMLNamespace {
    /// Atom (`entry`, `feed`).
    static let atom = "http://www.w3.org/2005/Atom"
    /// NH's DataContract namespace (registration descriptions, outcomes, details).
    static let connect = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect"
    /// XML Schema instance, for `i:nil`.
    static let instance = "http://www.w3.org/2001/XMLSchema-instance"
    /// ADO.NET data services metadata, for the entry's `a:etag`.
    static let metadata = "http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"

    /// The start tag of a DataContract root as the service writes it: default namespace, then `xmlns:i`.
    static func dataContractStartTag(_ name: String) -> String {
        "<\(name) xmlns=\"\(connect)\" xmlns:i=\"\(instance)\">"
    }
}
