import BelayCore
import BelayStorage
import Foundation
import Synchronization

/// The meetups still to come that a stranger's search may find, held in memory so that a
/// search costs a walk over a few hundred of them instead of a query and a row read per result.
///
/// It answers what `MeetupRepository.list` answers for a search of public meetups, in the same
/// order and with the same cursors: the database's list stays the reference (and answers every
/// other list), and a test holds the two to each other.
///
/// Freshness: every change to a meetup's row takes the next revision (by trigger). A search
/// asks the database for the highest one whenever this process has committed a write since the
/// last look, or the last look is `othersChangesShowWithin` (a tenth of a second) old, and then
/// reads just the rows changed since. So a search sees every change this process committed
/// before it, and another process's or node's within a tenth of a second. On PostgreSQL a
/// transaction may commit after another that took a later revision; the revisions skipped over
/// are read again for `holdingGapsFor` (two seconds), so such a change shows as soon.
final class MeetupSearchIndex: Sendable {
    /// One meetup as a search sees it.
    struct Entry: Sendable {
        let id: Int64
        /// Milliseconds since 1970.
        let startsAt: Int64
        let endsAt: Int64
        /// The day it starts on in its own zone, days since 1970-01-01.
        let day: Int32
        let latitudeE6: Int64?
        let longitudeE6: Int64?
        let going: Int64
        let capacity: Int64
        let gymID: Int64?
        let discipline: MeetupDiscipline?
        let levelAxis: GradeAxis?
        let levelMin: Int64
        let levelMax: Int64
        let tagMask: UInt32
    }

    /// What a meetup's words are searched in: folded, as `search_title` and `search_text`.
    /// Kept apart from its `Entry`, which copies without touching a reference count.
    struct Words: Sendable {
        let title: String
        let text: String
    }

    /// A search as the index reads it.
    struct Request {
        /// Folded words as UTF-8, each of which the text must hold (the title too, for rank 0).
        var words: [[UInt8]] = []
        var grams: [UInt64] = []
        /// Every word is two letters, one gram: the postings tell where they are.
        var wordsAreGrams = false
        var near: (latitudeE6: Int64, longitudeE6: Int64, longitudeScale: Double, radiusKey: Int64,
                   box: (minLatitude: Int64, maxLatitude: Int64, minLongitude: Int64, maxLongitude: Int64))?
        var gymID: Int64?
        var discipline: MeetupDiscipline?
        var tagMask: UInt32 = 0
        var hasSpots = false
        var fromDay: Int?
        var toDay: Int?
        var levelRanges: [GradeRange] = []
        var byDistance = false
        /// The position the page starts after: (title rank, start, id), or (0, distance key, id).
        var after: (rank: Int64, key: Int64, id: Int64)?
        /// How many to find at most (a page and one more, to know whether there is a next).
        var count = 21
        /// Milliseconds since 1970: meetups that ended by then are left out.
        var now: Int64 = 0
    }

    /// One meetup found, with what orders it.
    struct Found {
        let entry: Entry
        let rank: Int64
        let distanceKey: Int64?
    }

    /// How long a search trusts that nothing changed when this process committed nothing since
    /// the last look: the longest another process's or node's change waits to be found.
    static let othersChangesShowWithin: Duration = .milliseconds(100)
    /// How long revisions that were skipped over are read again.
    static let holdingGapsFor: Duration = .seconds(2)
    /// The revisions below the latest read again for a while after the first load, whose rows
    /// tell nothing of revisions skipped (it reads only the meetups a search may find).
    static let revisionsRereadAfterLoading: Int64 = 256
    /// How often, at most, the skipped revisions are read again while nothing newer comes.
    static let rereadingGapsEvery: Duration = .milliseconds(100)
    /// Changes kept beside the sorted entries before these are sorted again.
    let changesBeforeRebuild: Int

    private let state = Mutex<Snapshot?>(nil)
    /// The last time a search asked the database: this process's commits then, when, and the
    /// latest revision it was told.
    private let lastLook = Mutex<(commits: UInt64, at: ContinuousClock.Instant, revision: Int64)>((0, .now, .max))
    /// Held by the one search that brings the index up to date; others wait and use its result.
    private let refreshing = Mutex<Void>(())
    private let rebuilding = Atomic<Bool>(false)
    private let clock = ContinuousClock()

    init(changesBeforeRebuild: Int = 1_024) {
        self.changesBeforeRebuild = changesBeforeRebuild
    }

    /// The changes held beside the sorted entries now (none right after they are sorted in).
    var heldChanges: Int { state.withLock { $0?.changes.count ?? 0 } }

    static func mask(of tag: MeetupTag) -> UInt32 {
        1 << UInt32(MeetupTag.allCases.firstIndex(of: tag) ?? 31)
    }

    // MARK: Freshness

    /// The index as of now: read from the database the first time, brought up to date with
    /// the rows changed since after that.
    /// - Throws: `DatabaseError` when the database cannot be read.
    func current(pool: any DatabaseStore, now: Date) throws -> Snapshot {
        // Read before asking, so that a commit after it makes the next search ask again.
        let commits = pool.commitCount
        let asked = clock.now
        if let known = state.withLock({ $0 }), known.gaps.isEmpty, lastLook.withLock({ look in
            look.commits == commits && asked - look.at < Self.othersChangesShowWithin && look.revision <= known.revision
        }) {
            return known
        }
        let latest = try pool.readSingleStatement { try MeetupRepository.latestRevision(in: $0) }
        defer { lastLook.withLock { $0 = (commits, asked, latest) } }
        if let known = state.withLock({ $0 }), known.isCurrent(latest: latest, at: clock.now) { return known }
        return try refreshing.withLock { _ in
            if let known = state.withLock({ $0 }) {
                if known.isCurrent(latest: latest, at: clock.now) { return known }
                let updated = try updated(known, pool: pool)
                state.withLock { $0 = updated }
                if updated.changes.count > changesBeforeRebuild { rebuildInBackground(now: now) }
                return updated
            }
            let loaded = try load(pool: pool, now: now)
            state.withLock { $0 = loaded }
            return loaded
        }
    }

    private func load(pool: any DatabaseStore, now: Date) throws -> Snapshot {
        var zones: [String: TimeZone] = [:]
        let (latest, entries) = try pool.read { db in
            (try MeetupRepository.latestRevision(in: db), try MeetupRepository.searchEntries(endingAfter: now, in: db, zones: &zones))
        }
        // Transactions on PostgreSQL may still commit revisions below the latest: read the last ones again for a while.
        let gap = Gap(revisions: max(0, latest - Self.revisionsRereadAfterLoading + 1)...latest, seenAt: clock.now)
        return Snapshot(base: Base(entries), changes: [:], revision: latest, gaps: latest > 0 ? [gap] : [], refreshedAt: clock.now,
                        changeSequence: 0)
    }

    private func updated(_ known: Snapshot, pool: any DatabaseStore) throws -> Snapshot {
        let now = clock.now
        let gaps = known.gaps.filter { now - $0.seenAt < Self.holdingGapsFor }
        var zones: [String: TimeZone] = [:]
        let rows = try pool.read { db in
            try MeetupRepository.searchEntries(revisedAfter: known.revision, orIn: gaps.map(\.revisions), in: db, zones: &zones)
        }
        var changes = known.changes
        var sequence = known.changeSequence
        var seen = Set<Int64>()
        var highest = known.revision
        for row in rows {
            if row.revision > known.revision { seen.insert(row.revision) }
            highest = max(highest, row.revision)
            guard row.entry != nil || changes[row.id] != nil || known.base.position(of: row.id) != nil else { continue }
            sequence += 1
            changes[row.id] = Change(entry: row.entry, sequence: sequence)
        }
        // The revisions between those read that no row holds now: still committing, rolled back, or taken again since.
        var newGaps = gaps
        var expected = known.revision + 1
        for revision in seen.sorted() {
            if revision > expected { newGaps.append(Gap(revisions: expected...(revision - 1), seenAt: now)) }
            expected = revision + 1
        }
        if newGaps.count > 32 {
            // Too many to name one by one: one range over them all, for the same while.
            let lowest = newGaps.map(\.revisions.lowerBound).min() ?? 0, top = newGaps.map(\.revisions.upperBound).max() ?? 0
            newGaps = [Gap(revisions: lowest...top, seenAt: now)]
        }
        return Snapshot(base: known.base, changes: changes, revision: highest, gaps: newGaps, refreshedAt: now, changeSequence: sequence)
    }

    /// Sorts the changes into the entries on another thread, so that no search waits for it.
    private func rebuildInBackground(now: Date) {
        guard rebuilding.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { rebuilding.store(false, ordering: .releasing) }
            guard let known = state.withLock({ $0 }) else { return }
            let nowMilliseconds = now.millisecondsSince1970
            var entries = known.base.entries.indices.filter {
                known.changes[known.base.entries[$0].id] == nil && known.base.entries[$0].endsAt > nowMilliseconds
            }.map { (known.base.entries[$0], known.base.words(at: $0)) }
            entries += known.changes.values.compactMap(\.entry).filter { $0.0.endsAt > nowMilliseconds }
            let base = Base(entries)
            state.withLock { current in
                guard let latest = current else { return }
                // Changes read while the entries were sorted stay beside them.
                let later = latest.changes.filter { $0.value.sequence > known.changeSequence }
                current = Snapshot(base: base, changes: later, revision: latest.revision, gaps: latest.gaps,
                                   refreshedAt: latest.refreshedAt, changeSequence: latest.changeSequence)
            }
        }
    }

    // MARK: State

    struct Change: Sendable {
        /// nil: no search may find it any more.
        let entry: (Entry, Words)?
        let sequence: UInt64
    }

    struct Gap: Sendable {
        let revisions: ClosedRange<Int64>
        let seenAt: ContinuousClock.Instant
    }

    /// The entries as of one refresh: sorted ones with their postings, and the changes since.
    struct Snapshot: Sendable {
        let base: Base
        /// By meetup id: these replace the base's entry of that id.
        let changes: [Int64: Change]
        let revision: Int64
        let gaps: [Gap]
        let refreshedAt: ContinuousClock.Instant
        let changeSequence: UInt64

        func isCurrent(latest: Int64, at now: ContinuousClock.Instant) -> Bool {
            latest <= revision && (gaps.isEmpty || now - refreshedAt < MeetupSearchIndex.rereadingGapsEvery)
        }

        /// Up to `request.count` meetups found, in the list's order.
        func search(_ request: Request) -> [Found] {
            var found = base.search(request, skipping: changes.isEmpty ? nil : changes)
            for change in changes.values {
                guard let (entry, words) = change.entry, let match = base.match(entry, words, request), Base.isAfter(match, request) else { continue }
                found.append(match)
            }
            found.sort { Base.precedes($0, $1, byDistance: request.byDistance) }
            return Array(found.prefix(request.count))
        }
    }
}
