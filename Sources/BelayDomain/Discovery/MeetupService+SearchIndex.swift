import BelayCore
import Foundation

extension MeetupService {
    /// Whether `search(_:preferences:)` answers `query`: a search (some filter or order given)
    /// of the public meetups to come, for anyone (no host's own list, no place or host filter,
    /// no viewer whose blocks must be left out). Every other list is `list(_:preferences:)`'s.
    public func searchesInMemory(_ query: MeetupQuery) -> Bool {
        !query.search.isEmpty && query.scope == .upcoming && query.placeName == nil && query.hostID == nil && query.managerID == nil
            && !query.includePrivate && query.viewerID == nil
    }

    /// A page of a search that `searchesInMemory` accepts, as `list(_:preferences:)` gives it
    /// (the same meetups in the same order, the same cursors), but as ids, from the meetups held
    /// in memory: the caller shows each as it shows one meetup, from its own cache.
    /// - Throws: `DomainError` for a bad limit, cursor or search value (naming the parameter),
    ///   or `invalid_input` (field `scope`) for a list the index does not hold.
    public func search(_ query: MeetupQuery, preferences: LogbookPreferences = LogbookPreferences()) throws -> Page<MeetupHit> {
        try search(query, preferences: preferences, in: searchIndex)
    }

    func search(_ query: MeetupQuery, preferences: LogbookPreferences, in index: MeetupSearchIndex) throws -> Page<MeetupHit> {
        guard searchesInMemory(query) else {
            throw DomainError.invalid("scope", "Only searches of public meetups to come are answered from memory; list the others")
        }
        let limit = try validatedLimit(query.limit)
        let listName = Self.listName(query)
        let cursor = try query.cursor.map { try Cursor.decode($0, list: listName) }
        let resolved = try ResolvedMeetupSearch(query.search, preferences: preferences)
        let now = clock.now()
        let byDistance = query.search.sort == .distance
        var request = MeetupSearchIndex.Request()
        request.words = resolved.words.map { Array($0.utf8) }
        request.grams = resolved.grams.map(SearchText.gramKey)
        request.wordsAreGrams = !resolved.words.isEmpty && resolved.words.allSatisfy { $0.unicodeScalars.count == 2 }
        if let near = resolved.near {
            request.near = (near.latitudeE6, near.longitudeE6, near.longitudeScale, Int64(resolved.radiusKeySquared.rounded(.up)),
                            near.boundingBoxE6(kilometres: resolved.radiusKilometres))
        }
        request.gymID = query.search.gymID
        request.discipline = query.search.discipline
        request.tagMask = query.search.tag.map(MeetupSearchIndex.mask(of:)) ?? 0
        request.hasSpots = query.search.hasSpots
        request.fromDay = query.search.from?.daysSinceEpoch
        request.toDay = query.search.to?.daysSinceEpoch
        request.levelRanges = resolved.levelRanges
        request.byDistance = byDistance
        request.after = cursor.map { cursor in
            byDistance ? (0, cursor.key, cursor.id) : (cursor.key / Self.rankStep, cursor.key % Self.rankStep, cursor.id)
        }
        request.count = limit + 1
        request.now = now.millisecondsSince1970
        let found = try domainCall { try index.current(pool: pool, now: now) }.search(request)
        let page = found.prefix(limit)
        let next = found.count > limit ? page.last.map { found in
            Cursor(list: listName, key: byDistance ? found.distanceKey ?? 0 : found.rank * Self.rankStep + found.entry.startsAt,
                   id: found.entry.id).encoded
        } : nil
        return Page(items: page.map { found in
            MeetupHit(id: found.entry.id, distanceKilometres: resolved.near.flatMap { near in
                GeoPoint(latitudeE6: found.entry.latitudeE6, longitudeE6: found.entry.longitudeE6).map(near.distanceKilometres(to:))
            })
        }, nextCursor: next)
    }

    /// Reads the meetups that searches look through into memory now, which the first search
    /// would otherwise do: for a server about to answer.
    /// - Returns: how many meetups searches look through.
    /// - Throws: `DomainError` when the database cannot be read.
    @discardableResult
    public func prepareSearches() throws -> Int {
        let snapshot = try domainCall { try searchIndex.current(pool: pool, now: clock.now()) }
        return snapshot.base.entries.count + snapshot.changes.count
    }

    /// The meetups of `ids` that exist, in one read, in the order of `ids`.
    /// - Throws: `DomainError` when the database cannot be read.
    public func meetups(ids: [Int64]) throws -> [Meetup] {
        guard !ids.isEmpty else { return [] }
        let found = try domainCall { try pool.read { try MeetupRepository.find(ids: ids, in: $0) } }
        let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return ids.compactMap { byID[$0] }
    }
}
