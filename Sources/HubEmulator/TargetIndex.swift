import HubExpressions
import HubWire

/// The targets of one hub, indexed by tag so a send visits only candidates that can match.
///
/// A tag expression is turned into a candidate set (`a` → its targets, `||` → union, `&&` →
/// intersection of the indexable parts); only `!` on its own needs every target of the kind.
/// Each candidate is then checked against the whole expression, so the index only prunes.
struct TargetIndex: Sendable {
    private(set) var targets: [Target.Key: Target] = [:]
    private var byTag: [String: Set<Target.Key>] = [:]
    private var templateKeys: Set<Target.Key> = []
    private var nativeKeys: [PushPlatform: Set<Target.Key>] = [:]
    private var byOwner: [Target.Key.Owner: [Target.Key]] = [:]

    /// Replaces every target of `owner` with `newTargets`.
    mutating func replace(owner: Target.Key.Owner, with newTargets: [Target]) {
        remove(owner: owner)
        for target in newTargets {
            targets[target.key] = target
            for tag in target.tags { byTag[tag, default: []].insert(target.key) }
            if target.isTemplate {
                templateKeys.insert(target.key)
            } else {
                nativeKeys[target.platform, default: []].insert(target.key)
            }
        }
        byOwner[owner] = newTargets.map(\.key)
    }

    /// Removes every target of `owner`.
    mutating func remove(owner: Target.Key.Owner) {
        for key in byOwner.removeValue(forKey: owner) ?? [] {
            guard let target = targets.removeValue(forKey: key) else { continue }
            for tag in target.tags {
                byTag[tag]?.remove(key)
                if byTag[tag]?.isEmpty == true { byTag[tag] = nil }
            }
            templateKeys.remove(key)
            nativeKeys[target.platform]?.remove(key)
        }
    }

    /// Template targets (when `platform` is nil) or native targets of `platform` matching `expression`
    /// (every one of the kind when nil), in a stable order.
    func matching(_ expression: TagExpression?, platform: PushPlatform?) -> [Target] {
        let kind = platform.map { nativeKeys[$0] ?? [] } ?? templateKeys
        let pool: Set<Target.Key>
        if let expression, let candidates = candidates(expression.root) {
            pool = candidates.count < kind.count ? candidates.filter(kind.contains) : kind.filter(candidates.contains)
        } else {
            pool = kind
        }
        var result: [Target] = []
        for key in pool {
            guard let target = targets[key] else { continue }
            if let expression, !expression.matches(target.tags) { continue }
            result.append(target)
        }
        // Compared field by field: building a sort string per target cost more than the match itself.
        return result.sorted { $0.key.precedes($1.key) }
    }

    /// Targets that can possibly match `node`, or nil when the node cannot be narrowed (a negation).
    private func candidates(_ node: TagExpression.Node) -> Set<Target.Key>? {
        switch node {
        case .tag(let tag):
            return byTag[tag] ?? []
        case .not:
            return nil
        case .or(let children):
            var union: Set<Target.Key> = []
            for child in children {
                guard let set = candidates(child) else { return nil }
                union.formUnion(set)
            }
            return union
        case .and(let children):
            let sets = children.compactMap(candidates).sorted { $0.count < $1.count }
            guard var intersection = sets.first else { return nil }
            for set in sets.dropFirst() where !intersection.isEmpty { intersection.formIntersection(set) }
            return intersection
        }
    }
}

extension Target.Key {
    /// Deterministic delivery order: installations before registrations, then by id, then template name.
    func precedes(_ other: Target.Key) -> Bool {
        switch (owner, other.owner) {
        case (.installation, .registration): return true
        case (.registration, .installation): return false
        case (.installation(let a), .installation(let b)), (.registration(let a), .registration(let b)):
            if a != b { return a < b }
            return (template ?? "") < (other.template ?? "")
        }
    }
}
