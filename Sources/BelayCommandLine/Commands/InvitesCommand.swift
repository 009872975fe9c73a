import Foundation
import BelayArguments
import BelayCore
import BelayDomain
import BelayRepresentations

/// `belay invites create|list|revoke`: codes that let people create an account while
/// `accounts.sign_up` is `invite`.
struct InvitesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "invites", abstract: "Make, list and revoke invite codes for sign-up by invite.",
            discussion: "With accounts.sign_up set to invite, a first sign-in in the app needs one of these codes. Hosts make them in the app too (POST /v1/invites).",
            subcommands: [Create.self, List.self, Revoke.self])
    }

    /// `belay invites create`.
    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "create", abstract: "Make an invite code; prints the code and its link.",
                                 discussion: "Example: belay invites create --uses 20 --days 14")
        }

        @Option("uses", valueName: "count", default: 1, help: "How many people it admits (1 to 10000).") var uses: Int
        @Option("days", valueName: "days", default: 7, help: "Days it works (1 to 365).") var days: Int
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            guard (1...365).contains(days) else {
                throw CommandLineError.usage("--days must be 1 to 365 (got \(days)).")
            }
            let now = Date()
            let invite = try services.domain.invites.create(uses: uses, expiresAt: now.addingTimeInterval(TimeInterval(days) * 86_400), by: .commandLine)
            let link = services.presentation.baseURL.url + "/invite/" + invite.code
            if json { return context.printJSON(InviteBody(invite: invite, link: link, now: now)) }
            context.print(invite.code)
            context.note("Invite \(invite.id) admits \(Plural.counted(uses, "person", plural: "people")) until \(TimeFormatting.local(invite.expiresAt, in: services.configuration.club.zone)); share the code or the link \(link).")
        }
    }

    /// `belay invites list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List the newest 200 invites.")
        }

        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let invites = try services.domain.invites.list(by: .commandLine)
            let now = Date()
            if json {
                var output = JSONOutput()
                output.object { output in
                    output.key("items")
                    output.array(invites) { output, invite in
                        InviteBody(invite: invite, link: services.presentation.baseURL.url + "/invite/" + invite.code, now: now).write(to: &output)
                    }
                }
                context.print(String(decoding: output.bytes, as: UTF8.self))
                return
            }
            var table = Table(columns: ["id", "code", "uses", "expires", "state"])
            for invite in invites {
                let state = invite.revokedAt != nil ? "revoked" : invite.uses >= invite.maxUses ? "used up" : invite.expiresAt <= now ? "expired" : "usable"
                table.append([String(invite.id), invite.code, "\(invite.uses)/\(invite.maxUses)",
                              TimeFormatting.local(invite.expiresAt, in: services.configuration.club.zone), state])
            }
            context.printTable(table, emptyMessage: "No invites yet. Make one with `belay invites create`.")
        }
    }

    /// `belay invites revoke`.
    struct Revoke: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "revoke", abstract: "Revoke an invite; its code stops working at once.")
        }

        @Argument("id", help: "The invite's id (see `belay invites list`).") var id: Int64
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let invite = try services.domain.invites.revoke(id: id, by: .commandLine)
            if json { return context.printJSON(InviteBody(invite: invite, link: services.presentation.baseURL.url + "/invite/" + invite.code, now: Date())) }
            context.print(invite.code)
            context.note("Revoked invite \(invite.id).")
        }
    }
}
