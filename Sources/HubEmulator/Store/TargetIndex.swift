import HubExpressions
import HubWire

/// The targets of one hub, indexed by tag so a send visits only candidates that can match.
///
/// A tag expression is turned into a candidate set (`a` → its targets, `||` → union, `&&` →
/// intersection of the indexable parts); only `!` on its own needs every target of the kind.
/// Each candidate is then checked against the whole expression, so the index only prunes.
struct TargetIndex: Sendable {
    /// Targets by slot; a removed target leaves nil until its slot is reused. The sets below hold slots,
    /// not keys: intersecting and hashing integers is several times cheaper than hashing id strings.
    private var slots: [Target?] = []
    private var freeSlots: [Int] = []
    private var byTag: [String: Set<Int>] = [:]
    private var templateSlots: Set<Int> = []
    private var nativeSlots: [PushPlatform: Set<Int>] = [:]
    private var byOwner: [Target.Key.Owner: [Int]] = [:]

    /// Replaces every target of `owner` with `newTargets`.
    mutating func replace(owner: Target.Key.Owner, with newTargets: [Target]) {
        remove(owner: owner)
        var owned: [Int] = []
        for target in newTargets {
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = target
            } else {
                slot = slots.count
                slots.append(target)
            }
            owned.append(slot)
            for tag in target.tags { byTag[tag, default: []].insert(slot) }
            if target.isTemplate {
                templateSlots.insert(slot)
            } else {
                nativeSlots[target.platform, default: []].insert(slot)
            }
        }
        byOwner[owner] = owned
    }

    /// Removes every target of `owner`.
    mutating func remove(owner: Target.Key.Owner) {
        for slot in byOwner.removeValue(forKey: owner) ?? [] {
            guard let target = slots[slot] else { continue }
            for tag in target.tags {
                byTag[tag]?.remove(slot)
                if byTag[tag]?.isEmpty == true { byTag[tag] = nil }
            }
            templateSlots.remove(slot)
            nativeSlots[target.platform]?.remove(slot)
            slots[slot] = nil
            freeSlots.append(slot)
        }
    }

    /// Template targets (when `platform` is nil) or native targets of `platform` matching `expression`
    /// (every one of the kind when nil), in a stable order.
    func matching(_ expression: TagExpression?, platform: PushPlatform?) -> [Target] {
        let kind = platform.map { nativeSlots[$0] ?? [] } ?? templateSlots
        let pool: Set<Int>
        if let expression, let candidates = candidates(expression.root) {
            pool = candidates.count < kind.count ? candidates.filter(kind.contains) : kind.filter(candidates.contains)
        } else {
            pool = kind
        }
        var result: [Target] = []
        result.reserveCapacity(pool.count)
        for slot in pool {
            guard let target = slots[slot] else { continue }
            if let expression, !expression.matches(target.tags) { continue }
            result.append(target)
        }
        // Compared field by field: building a sort string per target cost more than the match itself.
        result.sort { $0.key.precedes($1.key) }
        return result
    }

    /// Targets that can possibly match `node`, or nil when the node cannot be narrowed (a negation).
    private func candidates(_ node: TagExpression.Node) -> Set<Int>? {
        switch node {
        case .tag(let tag):
            return byTag[tag] ?? []
        case .not:
            return nil
        case .or(let children):
            var union: Set<Int> = []
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

extension TargetIndex {
    /// The index of a hub's saved state (a restart): every installation's targets, less the templates the hub's
    /// installation registrations dropped, and every registration's.
    init(indexing state: HubState) throws(TargetError) {
        self.init()
        for installation in state.installations.values {
            var targets = try Target.targets(of: installation)
            if let record = state.installationRegistrations[installation.installationId] {
                targets = targets.filter(record.keeps)
            }
            replace(owner: .installation(installation.installationId), with: targets)
        }
        for stored in state.registrations.values {
            guard let description = try? RegistrationDescription(parsing: stored.descriptionXML) else { continue }
            replace(owner: .registration(stored.id), with: [try Target.target(of: description, id: stored.id)])
        }
    }
}
