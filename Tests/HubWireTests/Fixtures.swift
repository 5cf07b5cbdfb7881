import Foundation
import HubWire
import TestSupport
import Testing

extension SASVector: CustomTestStringConvertible {
    /// .NET and the seed tutorial escape with lower-case hex; pyamqp and JS with upper case.
    var hexCase: HexCase { style == "seed-tutorial" || style == "dotnet-sdk" ? .lower : .upper }

    package var testDescription: String { style }
}

/// Shared test inputs.
enum Sample {
    static let key = "k9Ua5tXvq8Nd3Jm/Rz+Lw2Pq7yHs4Ab6Cd1Ef0GhIjY="
    static let keyName = "DefaultFullSharedAccessSignature"
    static let host = "contoso-nh.servicebus.windows.net"
    static let connectionString =
        "Endpoint=sb://contoso-nh.servicebus.windows.net/;SharedAccessKeyName=\(keyName);SharedAccessKey=\(key)"
    /// The fixture's expiry; every vector is valid strictly before it.
    static let expiry: Int64 = 1_700_000_000
}
