import HTTPServing

extension EmulatorResponder {
    func dispatch(_ call: Call, request: ServedRequest) async throws -> ServedResponse {
        let method = request.method
        switch (call.route, method) {
        case (.installation(let id), .put): return try await putInstallation(call, id: id)
        case (.installation(let id), .patch): return try await patchInstallation(call, id: id)
        case (.installation(let id), .get): return try await getInstallation(call, id: id)
        case (.installation(let id), .delete): return await deleteInstallation(call, id: id)
        case (.registrationIDs, .post): return await createRegistrationID(call)
        case (.registrations, .post): return try await createRegistration(call)
        case (.registrations, .get): return try await listRegistrations(call, tag: nil)
        case (.registration(let id), .put): return try await upsertRegistration(call, id: id)
        case (.registration(let id), .get): return try await getRegistration(call, id: id)
        case (.registration(let id), .delete): return try await deleteRegistration(call, id: id)
        case (.registrationsByTag(let tag), .get): return try await listRegistrations(call, tag: tag)
        case (.messages, .post): return try await send(call)
        case (.batch, .post): return try await batchSend(call)
        case (.notification(let id), .get): return try await telemetry(call, id: id)
        case (.scheduled, .post): return try await scheduleSend(call)
        case (.scheduledNotification(let id), .delete): return try await cancelScheduled(call, id: id)
        default: throw EmulatorError(405, "The method \(method.rawValue) is not allowed on this resource.")
        }
    }

    /// The request body as text; a body over `limit` bytes is 413 (NH: the whole send ≤ 64 KB).
    func body(_ call: Call, limit: Int = EmulatorResponder.maxBodyBytes) async throws -> String {
        do {
            return String(decoding: try await call.request.body(upTo: limit), as: UTF8.self)
        } catch {
            throw EmulatorError(413, "The request is larger than \(limit) bytes.")
        }
    }

    /// The media type NH gives its XML answers.
    static let xmlType = "application/xml; charset=utf-8"

    /// An answer with no body: today's service labels none of them (installation writes, deletes, sends).
    static func empty(_ status: HTTPStatus, headers: HeaderFields = [:]) -> ServedResponse {
        var headers = headers
        headers[.contentLength] = "0"
        return ServedResponse(status: status, headers: headers)
    }

    /// A response with a text body.
    func response(_ status: HTTPStatus, contentType: String? = nil, body: String = "", headers: HeaderFields = [:])
        -> ServedResponse
    {
        var headers = headers
        if let contentType { headers[.contentType] = contentType }
        return ServedResponse(status: status, headers: headers, text: body)
    }
}
