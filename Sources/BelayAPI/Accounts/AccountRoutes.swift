import BelayCore
import BelayDomain
import BelayHTTP
import BelayRepresentations
import BelayUseCases
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension APIRoutes {
    /// The member's own account: profile, sessions, export and deletion; and invites.
    func registerAccountRoutes(public router: OperationRoutes<APIContext>, authenticated routes: OperationRoutes<AuthenticatedContext>) {
        routes.on(Operations.me) { _, context in
            let caller = context.caller
            var body = ProfileBody(profile: try domain.accounts.profile(userID: caller.userID),
                                   calendarURL: try calendarFeedURL(memberID: caller.userID),
                                   progress: try domain.progress.progress(memberID: caller.userID))
            body.safety = (try domain.moderation.isModerator(caller.actor), try domain.safety.termsToAccept(userID: caller.userID))
            return .api(body, headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.updateMe) { request, context in
            let caller = context.caller
            let body = try request.decodeJSON(as: ProfileRequest.self)
            let change = ProfileChange(displayName: body.displayName, handle: body.handle, locale: try Self.locale(body.locale),
                                       showNameOnSharePages: body.showNameOnSharePages)
            let profile = try domain.accounts.updateProfile(userID: caller.userID, change)
            tokenCache.removeAll()
            return .api(ProfileBody(profile: profile, calendarURL: try calendarFeedURL(memberID: caller.userID),
                                    progress: try domain.progress.progress(memberID: caller.userID)),
                        headers: ["Cache-Control": "no-store"])
        }

        routes.on(Operations.deleteMe) { _, context in
            let caller = context.caller
            _ = try erasure.eraseOwnAccount(userID: caller.userID, sessionID: caller.sessionID, log: signIn.log)
            tokenCache.removeAll()
            sharePageCache.removeAll()
            return Response(status: .noContent, headers: [:], body: .empty)
        }

        routes.on(Operations.listSessions) { _, context in
            let caller = context.caller
            let sessions = try domain.accounts.sessions(userID: caller.userID)
            var json = JSONOutput()
            json.object { json in
                json.key("items")
                json.array(sessions) { json, session in SessionBody(session: session, isCurrent: session.id == caller.sessionID).write(to: &json) }
            }
            return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                            body: ResponseBody(bytes: json.bytes))
        }

        routes.on(Operations.endSession) { _, context in
            let caller = context.caller
            try domain.accounts.endSession(id: try context.id(), userID: caller.userID)
            tokenCache.removeAll()
            return Response(status: .noContent, headers: [:], body: .empty)
        }

        routes.on(Operations.exportMe) { _, context in
            let caller = context.caller
            return try export(userID: caller.userID)
        }

        routes.on(Operations.createInvite) { request, context in
            let body = request.body.isEmpty ? CreateInviteRequest() : try request.decodeJSON(as: CreateInviteRequest.self)
            let days = body.expiresInDays ?? 7
            guard (1...365).contains(days) else {
                throw HTTPError(.unprocessableContent, code: RefusalReason.invalidInput.rawValue,
                                detail: "`expires_in_days` is 1 to 365; got \(days).", extensions: ["field": "expires_in_days"])
            }
            let now = domain.clock.now()
            let invite = try domain.invites.create(uses: body.uses ?? 1, expiresAt: now.addingTimeInterval(TimeInterval(days) * 86_400),
                                                   by: context.actor)
            return .api(InviteBody(invite: invite, link: inviteLink(invite.code), now: now), status: .created)
        }

        routes.on(Operations.listInvites) { _, context in
            let invites = try domain.invites.list(by: context.actor)
            let now = domain.clock.now()
            var json = JSONOutput()
            json.object { json in
                json.key("items")
                json.array(invites) { json, invite in InviteBody(invite: invite, link: inviteLink(invite.code), now: now).write(to: &json) }
            }
            return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                            body: ResponseBody(bytes: json.bytes))
        }

        routes.on(Operations.revokeInvite) { _, context in
            let invite = try domain.invites.revoke(id: try context.id(), by: context.actor)
            return .api(InviteBody(invite: invite, link: inviteLink(invite.code), now: domain.clock.now()))
        }

        // The invite link: the app opens it where it is installed; a browser is told how to use the code.
        router.on(Operations.invitePage) { _, context in
            let code = try context.parameters.require("code")
            return appLinkPage(title: "You are invited to \(services.sharePageSettings.clubName)",
                               detail: "Install the club's app and sign in; when it asks for an invite code, enter \(code.prefix(40)).")
        }
    }

    func inviteLink(_ code: String) -> String { presentation.baseURL.url + "/invite/" + code }

    /// Everything Belay keeps about the member as one JSON document, written page by page
    /// into an unlinked temporary file and sent from it, so a long history never sits in memory.
    private func export(userID: Int64) throws -> Response {
        let profile = try domain.accounts.profile(userID: userID)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("belay-export-\(Crypto.hex(Crypto.randomBytes(8))).json").path
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let file = FileHandle(forWritingAtPath: path) else {
            throw HTTPError(.serviceUnavailable, code: "busy", detail: "The export could not be prepared; try again in a minute.",
                            headers: ["Retry-After": "60"])
        }
        defer { unlink(path) }
        do {
            defer { try? file.close() }
            func write(_ text: String) { file.write(Data(text.utf8)) }
            func write(_ value: some JSONRepresentable) { file.write(Data(value.jsonBytes)) }
            /// Writes `items` page by page as the elements of a JSON array.
            func writeArray<Item>(_ name: String, pages next: (inout Bool) throws -> [Item], element: (Item) -> any JSONRepresentable) throws {
                write(",\"\(name)\":[")
                var first = true
                var done = false
                while !done {
                    for item in try next(&done) {
                        if !first { write(",") }
                        first = false
                        write(element(item))
                    }
                }
                write("]")
            }
            write("{\"format\":\"belay-member-export/1\",\"exported_at\":\"" + RFC3339.string(from: domain.clock.now(), utcOffsetSeconds: 0) + "\"")
            write(",\"profile\":")
            write(ProfileBody(profile: profile))
            let identities = try domain.accounts.identities(userID: userID)
            try writeArray("identities", pages: { done in done = true; return identities }) { ExportedIdentity(identity: $0) }
            let sessions = try domain.accounts.sessions(userID: userID)
            try writeArray("sessions", pages: { done in done = true; return sessions }) { SessionBody(session: $0, isCurrent: false) }
            var cursor: String?
            try writeArray("attendances", pages: { done in
                let page = try domain.attendance.attendances(memberID: userID, limit: 200, cursor: cursor)
                cursor = page.nextCursor
                done = cursor == nil
                return page.items
            }) { AttendanceBody(attendance: $0, presentation: presentation) }
            cursor = nil
            try writeArray("rewards", pages: { done in
                let page = try domain.rewards.rewards(memberID: userID, includeRevoked: true, limit: 200, cursor: cursor)
                cursor = page.nextCursor
                done = cursor == nil
                return page.items
            }) { RewardBody(reward: $0, presentation: presentation) }
            var after: Int64 = 0
            try writeArray("share_events", pages: { done in
                let events = try domain.shares.events(memberID: userID, afterID: after, limit: 500)
                after = events.last?.id ?? after
                done = events.count < 500
                return events
            }) { ShareEventBody(event: $0, presentation: presentation) }
            let preferences = try domain.logbook.preferences(memberID: userID)
            write(",\"logbook_preferences\":")
            write(LogbookPreferencesBody(preferences: preferences))
            cursor = nil
            try writeArray("ticks", pages: { done in
                let page = try domain.logbook.logbook(memberID: userID, viewerID: userID, filter: TickFilter(), limit: 200, cursor: cursor)
                cursor = page.nextCursor
                done = cursor == nil
                return page.items
            }) { TickBody(tick: $0, preferences: preferences) }
            // Safety: the member's own reports (never who reported them), blocks, bans and terms.
            cursor = nil
            try writeArray("reports", pages: { done in
                let page = try domain.reports.reports(of: userID, limit: 200, cursor: cursor)
                cursor = page.nextCursor
                done = cursor == nil
                return page.items
            }) { ReportBody(report: $0) }
            let blocks = try domain.safety.blocks(of: userID)
            try writeArray("blocks", pages: { done in done = true; return blocks }) { BlockedMemberBody(member: $0) }
            let bans = try domain.safety.bans(of: userID)
            try writeArray("bans", pages: { done in done = true; return bans }) { BlockedMemberBody(member: $0) }
            let terms = try domain.safety.termsAcceptances(userID: userID)
            try writeArray("terms_acceptances", pages: { done in done = true; return terms }) {
                TermsAcceptanceBody(version: $0.version, acceptedAt: $0.acceptedAt)
            }
            write("}")
        }
        let region = try FileRegion(path: path)
        return Response(status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store",
                                               "Content-Disposition": "attachment; filename=\"belay-export.json\""],
                        body: ResponseBody(file: region))
    }
}

/// A sign-in identity in a member's export: which provider, the subject it knows them by, no secrets.
struct ExportedIdentity: JSONRepresentable {
    let identity: LinkedIdentity

    func write(to json: inout JSONOutput) {
        json.object { json in
            json.member("provider", identity.provider.rawValue)
            json.member("subject", identity.subject)
            json.member("email", identity.email)
            json.member("created_at", utc: identity.createdAt)
            json.member("last_used_at", utc: identity.lastUsedAt)
        }
    }
}
