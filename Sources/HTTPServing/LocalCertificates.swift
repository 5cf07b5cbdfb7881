import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority of this machine's own, for a server that must speak HTTPS on loopback (the emulator:
/// NH is HTTPS-only, and real clients refuse `http://`).
///
/// The authority is made once and kept in a folder (`ca.pem`, which clients trust, and `ca-key.pem`); the server's
/// certificate is issued again at each start for the names it is reached by, so trust set up once lasts while the
/// names may change. Keys are P-256 and written readable by their owner alone.
public struct LocalCertificates: Sendable {
    /// The authority's certificate: the file a client trusts.
    public let authorityFile: String
    /// The server's certificate and key, ready for `ServerOptions.tls`.
    public let server: ServerTLS

    /// How long the authority lasts, and each server certificate (re-issued at every start). 397 days is the most
    /// that clients which cap a leaf's lifetime (Apple's) accept.
    static let authorityLifetime: TimeInterval = 10 * 365 * 86_400
    static let serverLifetime: TimeInterval = 397 * 86_400

    /// Loads the authority kept in `folder`, or makes one there, and issues a server certificate for `names`
    /// (host names and IP addresses).
    public static func prepare(folder: String, names: [String], now: Date = Date()) throws(LocalCertificateError)
        -> LocalCertificates
    {
        let files = Files(folder: folder)
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw LocalCertificateError(
                "cannot create the certificate folder '\(folder)': \(error.localizedDescription)")
        }
        let authority = try loadOrMakeAuthority(files, now: now)
        let key = P256.Signing.PrivateKey()
        do {
            let certificate = try issue(for: names, key: key, authority: authority, now: now)
            try write(
                certificate.serializeAsPEM().pemString + "\n" + authority.certificate.serializeAsPEM().pemString + "\n",
                to: files.serverCertificate, mode: 0o644)
            try write(key.pemRepresentation + "\n", to: files.serverKey, mode: 0o600)
        } catch let error as LocalCertificateError {
            throw error
        } catch {
            throw LocalCertificateError("cannot issue the server certificate: \(error)")
        }
        return LocalCertificates(
            authorityFile: files.authority,
            server: ServerTLS(certificateChainFile: files.serverCertificate, privateKeyFile: files.serverKey))
    }

    struct Files {
        let authority: String
        let authorityKey: String
        let serverCertificate: String
        let serverKey: String

        init(folder: String) {
            let base = URL(fileURLWithPath: folder)
            authority = base.appendingPathComponent("ca.pem").path
            authorityKey = base.appendingPathComponent("ca-key.pem").path
            serverCertificate = base.appendingPathComponent("server.pem").path
            serverKey = base.appendingPathComponent("server-key.pem").path
        }
    }

    struct Authority {
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
    }

    private static func loadOrMakeAuthority(_ files: Files, now: Date) throws(LocalCertificateError) -> Authority {
        let manager = FileManager.default
        if manager.fileExists(atPath: files.authority) || manager.fileExists(atPath: files.authorityKey) {
            do {
                let certificate = try Certificate(
                    pemEncoded: try String(contentsOfFile: files.authority, encoding: .utf8))
                let key = try P256.Signing.PrivateKey(
                    pemRepresentation: try String(contentsOfFile: files.authorityKey, encoding: .utf8))
                // A pair that does not belong together, or an authority past its end, is made anew: clients must
                // then trust the new `ca.pem`, which the banner names.
                if certificate.publicKey == Certificate.PublicKey(key.publicKey),
                    certificate.notValidAfter > now.addingTimeInterval(serverLifetime)
                {
                    return Authority(certificate: certificate, key: key)
                }
            } catch {
                throw LocalCertificateError(
                    "cannot read the certificate authority in '\(files.authority)' and '\(files.authorityKey)': \(error); "
                        + "remove both to have a new one made")
            }
        }
        let key = P256.Signing.PrivateKey()
        do {
            let name = try DistinguishedName {
                OrganizationName("Pushline")
                CommonName("Pushline emulator local CA \(Int(now.timeIntervalSince1970))")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(authorityLifetime),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                issuerPrivateKey: Certificate.PrivateKey(key))
            try write(key.pemRepresentation + "\n", to: files.authorityKey, mode: 0o600)
            try write(certificate.serializeAsPEM().pemString + "\n", to: files.authority, mode: 0o644)
            return Authority(certificate: certificate, key: key)
        } catch let error as LocalCertificateError {
            throw error
        } catch {
            throw LocalCertificateError("cannot make a certificate authority: \(error)")
        }
    }

    /// A leaf for `names`: server authentication only, its names as subject alternative names (what clients check;
    /// Python 3.13's strict mode also wants the key identifiers).
    private static func issue(for names: [String], key: P256.Signing.PrivateKey, authority: Authority, now: Date) throws
        -> Certificate
    {
        let alternativeNames = names.map { name -> GeneralName in
            if let address = ipAddressBytes(name) {
                return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(address)))
            }
            return .dnsName(name)
        }
        let publicKey = Certificate.PublicKey(key.publicKey)
        let authorityKeyId = try authority.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(alternativeNames)
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: authorityKeyId)
        }
        let subject = try DistinguishedName {
            OrganizationName("Pushline")
            CommonName(names.first ?? "localhost")
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(serverLifetime),
            issuer: authority.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: Certificate.PrivateKey(authority.key))
    }

    /// Writes `text` so that no other user can read a key even for a moment: the file is created with its mode.
    private static func write(_ text: String, to path: String, mode: mode_t) throws(LocalCertificateError) {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw LocalCertificateError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw LocalCertificateError("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}

/// A certificate folder that cannot be read or written.
public struct LocalCertificateError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The 4 or 16 bytes of an IPv4 or IPv6 address written as text; nil for a host name.
private func ipAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
    return nil
}
