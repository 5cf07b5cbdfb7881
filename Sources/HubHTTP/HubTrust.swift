import NIOSSL

/// Certificates that a hub's HTTPS certificate may chain to besides the system's own: the local certificate
/// authority of `pushline emulator --tls`, or a company's TLS-inspecting proxy. Named by `PUSHLINE_CA_FILE`, a PEM
/// file of one or more certificates, read once when a client is made so a wrong file fails before anything is sent.
package struct HubTrust: Sendable {
    /// The variable that names the file.
    package static let variable = "PUSHLINE_CA_FILE"
    /// The system's trust roots alone.
    package static let system = HubTrust(certificates: [])

    let certificates: [NIOSSLCertificate]

    private init(certificates: [NIOSSLCertificate]) {
        self.certificates = certificates
    }

    /// The trust `environment` asks for: the system's, plus the certificates of the file `PUSHLINE_CA_FILE` names.
    package init(environment: [String: String]) throws(HubTrustError) {
        guard let path = environment[Self.variable], !path.isEmpty else {
            self = .system
            return
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(path)
        } catch {
            throw HubTrustError(path: path, reason: "it cannot be read as PEM certificates (\(error))")
        }
        guard !certificates.isEmpty else { throw HubTrustError(path: path, reason: "it holds no PEM certificate") }
        self.certificates = certificates
    }
}

/// `PUSHLINE_CA_FILE` names a file that gives no certificate.
package struct HubTrustError: Error, Sendable, CustomStringConvertible {
    let path: String
    let reason: String

    package var description: String {
        "\(HubTrust.variable) names '\(path)', but \(reason); name a PEM file of CA certificates "
            + "(such as the ca.pem that `pushline emulator --tls` prints), or unset it"
    }
}
