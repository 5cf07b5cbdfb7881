#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DirectBatchRequest {
    /// Reads a batch body as a server: the boundary comes from `contentType` (quoted or not, spaces around `=`
    /// allowed); line ends may be CRLF or LF; header names match in any case; parts are found by their
    /// `Content-Disposition` name (`notification`, `devices`), other parts are ignored. `devices` must be a JSON
    /// array of strings. The handle limit is not checked here.
    public init(parsing body: [UInt8], contentType: String) throws(DirectBatchError) {
        let example = "e.g. multipart/mixed; boundary=\"\(Self.defaultBoundary)\""
        let header = HeaderValue(contentType)
        guard header.token.hasPrefix("multipart/") else {
            throw DirectBatchError(
                message: "A direct batch send needs a multipart Content-Type (\(example)), "
                    + "got '\(contentType)'.")
        }
        guard let boundary = header.parameters["boundary"], !boundary.isEmpty else {
            throw DirectBatchError(message: "The Content-Type has no boundary parameter (\(example)).")
        }
        var named: [String: MultipartPart] = [:]
        var names: [String] = []
        for part in try MultipartBody.parts(of: body, boundary: boundary) {
            let disposition = part.headers["content-disposition"].map(HeaderValue.init)
            guard let name = disposition?.parameters["name"]?.lowercased() else { continue }
            guard named[name] == nil else {
                throw DirectBatchError(message: "The body has more than one part named '\(name)'.")
            }
            named[name] = part
            names.append(name)
        }
        func required(_ name: String) throws(DirectBatchError) -> MultipartPart {
            guard let part = named[name] else {
                let found = names.isEmpty ? "no part has a name" : "found: " + names.joined(separator: ", ")
                throw DirectBatchError(
                    message: "The body has no part named '\(name)' "
                        + "(Content-Disposition: inline; name=\(name)); \(found).")
            }
            return part
        }
        let notification = try required("notification")
        let devicesPart = try required("devices")
        guard let devices = try? JSONDecoder().decode([String].self, from: Data(devicesPart.content)) else {
            throw DirectBatchError(
                message: "The devices part must be a JSON array of device handle strings, "
                    + "e.g. [\"TOKEN1\",\"TOKEN2\"].")
        }
        self.init(
            notification: notification.content,
            notificationContentType: notification.headers["content-type"] ?? "", devices: devices)
    }
}
