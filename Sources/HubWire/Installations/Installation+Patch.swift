#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Installation {
    /// Applies a JSON-Patch array the way the service does (nh-rest-api.md §3.1), all or nothing.
    ///
    /// * `/pushChannel`: add/replace set it (a stringified `{endpoint,p256dh,auth}` object sets a browser
    ///   channel) and reset `pushChannelExpired` to false; it cannot be removed.
    /// * `/userId`: add/replace set it, remove deletes it.
    /// * `/tags`: add unions a tag, or a JSON array of tags sent as a string; `remove /tags/{tag}` deletes one
    ///   tag, and removing the last one removes the property.
    /// * `/templates/{name}`: add/replace create or replace the template from stringified JSON; remove deletes it.
    /// * `/templates/{name}/body|headers|expiry|tags`: set (headers replace the whole object, tags union) or
    ///   delete a part of an existing template; `…/tags/{tag}` removes one of its tags; body cannot be removed.
    /// * `replace` is remove followed by add. Removing something absent is not an error. Any other path,
    ///   or an operation the table does not allow, throws; the installation is then left unchanged.
    ///
    /// Path segments are JSON pointers (`~1` is `/`, `~0` is `~`); property names match case-insensitively.
    public mutating func apply(_ operations: [InstallationPatchOperation]) throws(InstallationPatchError) {
        var patched = self
        for (offset, operation) in operations.enumerated() {
            do throws(PatchProblem) {
                try patched.apply(operation)
            } catch {
                throw InstallationPatchError(
                    message: "Operation \(offset + 1) (\(operation.op.rawValue) \(operation.path)): \(error.reason)")
            }
        }
        self = patched
    }

    private mutating func apply(_ operation: InstallationPatchOperation) throws(PatchProblem) {
        let target = try PatchTarget(path: operation.path)
        switch operation.op {
        case .add:
            guard let value = operation.value else { throw PatchProblem("add needs a value") }
            try add(value, at: target)
        case .remove:
            try remove(target)
        case .replace:
            guard let value = operation.value else { throw PatchProblem("replace needs a value") }
            switch target {
            case .pushChannel, .templateBody:
                break  // cannot be removed, but can be replaced
            case .tags, .tag, .templateTag:
                throw PatchProblem("replace is not supported here; add to /tags or remove /tags/{tag}")
            default:
                try remove(target)
            }
            try add(value, at: target)
        }
    }

    private mutating func add(_ value: String, at target: PatchTarget) throws(PatchProblem) {
        switch target {
        case .pushChannel:
            pushChannel = try PatchValue.pushChannel(value)
            pushChannelExpired = false
        case .userId:
            userId = value
        case .tags:
            tags = PatchValue.union(tags, try PatchValue.tags(value))
        case .template(let name):
            if templates == nil { templates = [:] }
            let expected = "a template as stringified JSON, e.g. {\"body\":\"…\"}"
            templates?[name] = try PatchValue.decode(InstallationTemplate.self, from: value, expected: expected)
        case .templateBody(let name):
            try modifyTemplate(name) { $0.body = value }
        case .templateHeaders(let name):
            let headers = try PatchValue.decode(
                [String: String].self, from: value,
                expected: "headers as a stringified JSON object of strings")
            try modifyTemplate(name) { $0.headers = headers }
        case .templateExpiry(let name):
            try modifyTemplate(name) { $0.expiry = value }
        case .templateTags(let name):
            let added = try PatchValue.tags(value)
            try modifyTemplate(name) { $0.tags = PatchValue.union($0.tags, added) }
        case .tag, .templateTag:
            throw PatchProblem("add is not supported here; add tags with path /tags and the tag as the value")
        }
    }

    private mutating func remove(_ target: PatchTarget) throws(PatchProblem) {
        switch target {
        case .pushChannel:
            throw PatchProblem("the push channel cannot be removed; replace it instead")
        case .userId:
            userId = nil
        case .tags:
            throw PatchProblem("remove tags one at a time with path /tags/{tag}")
        case .tag(let tag):
            tags = PatchValue.removing(tag, from: tags)
        case .template(let name):
            templates?[name] = nil
            if templates?.isEmpty == true { templates = nil }
        case .templateBody:
            throw PatchProblem("a template's body cannot be removed; remove the whole template instead")
        case .templateHeaders(let name):
            try modifyTemplate(name) { $0.headers = nil }
        case .templateExpiry(let name):
            try modifyTemplate(name) { $0.expiry = nil }
        case .templateTags(let name):
            try modifyTemplate(name) { $0.tags = nil }
        case .templateTag(let name, let tag):
            try modifyTemplate(name) { $0.tags = PatchValue.removing(tag, from: $0.tags) }
        }
    }

    private mutating func modifyTemplate(
        _ name: String,
        _ change: (inout InstallationTemplate) -> Void
    ) throws(PatchProblem) {
        guard var template = templates?[name] else {
            throw PatchProblem("the installation has no template '\(name)'; add /templates/\(name) first")
        }
        change(&template)
        templates?[name] = template
    }
}

/// A failed operation's reason, before `apply` prefixes the operation.
struct PatchProblem: Error {
    let reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}
