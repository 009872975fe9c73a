import Foundation
import BelayArguments
import BelayComposition
import BelayDomain
import BelayUseCases

/// `belay users create|list|role|share-name|token|tokens|revoke|delete`: people and their API tokens.
struct UsersCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "users", abstract: "Create users, change roles, issue and revoke API tokens, delete accounts.",
                             subcommands: [Create.self, List.self, Role.self, ShareName.self, Token.self, Tokens.self, Revoke.self, ResetSecondFactor.self,
                                           Delete.self])
    }

    static let handle = Argument<String>("handle", help: "The user's handle, e.g. jisoo.")

    /// A user as scripts see it.
    struct UserOutput: Encodable {
        var id: Int64
        var handle: String
        var displayName: String
        var email: String?
        var role: String
        var createdAt: Date

        init(_ user: User) {
            id = user.id
            handle = user.handle
            displayName = user.displayName
            email = user.email
            role = user.role.rawValue
            createdAt = user.createdAt
        }
    }

    /// A token as listed; the secret only appears in `TokenOutput.secret` right after issuing.
    struct TokenOutput: Encodable {
        var id: Int64
        var user: String
        var prefix: String
        var label: String
        var createdAt: Date
        var lastUsedAt: Date?
        var revokedAt: Date?
        var expiresAt: Date?
        var secret: String?

        init(_ token: APIToken, handle: String, secret: String? = nil) {
            id = token.id
            user = handle
            prefix = token.prefix
            label = token.label
            createdAt = token.createdAt
            lastUsedAt = token.lastUsedAt
            revokedAt = token.revokedAt
            expiresAt = token.expiresAt
            self.secret = secret
        }
    }

    /// `belay users create`.
    struct Create: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "create",
                abstract: "Create a user (and optionally their first API token).",
                discussion: "Example: belay users create jisoo --name \"Jisoo Kim\" --role host --token"
            )
        }

        @Argument(UsersCommand.handle) var handle: String
        @Option("name", valueName: "display name", help: "The name shown in the app.") var name: String
        @OptionalOption("email", valueName: "address", help: "The user's email address (unique).") var email: String?
        @Option("role", valueName: "role", default: .member, help: "What the user may do.") var role: BelayDomain.Role
        @Flag("token", help: "Also issue an API token and print it (shown only this once).") var token: Bool
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var user: UserOutput
            var token: TokenOutput?
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.users.createUser(NewUser(handle: handle, displayName: name, email: email, role: role))
            let issued = token ? try services.users.issueToken(userID: user.id, label: "created with the user") : nil
            if json {
                return try context.printJSON(Output(user: UserOutput(user), token: issued.map { TokenOutput($0.token, handle: user.handle, secret: $0.secret) }))
            }
            var table = Table(columns: ["id", "handle", "name", "role", "email"])
            table.append([String(user.id), user.handle, user.displayName, user.role.rawValue, user.email ?? "-"])
            context.printTable(table)
            if let issued {
                context.print()
                context.print("token: \(issued.secret)")
                context.note("Give this token to \(user.handle) now: it is shown only once. Revoke it with `belay users revoke \(user.handle) --token \(issued.token.id)`.")
            }
            context.note("Created \(user.role.rawValue) \(user.handle).")
        }
    }

    /// `belay users list`.
    struct List: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List users, oldest first.")
        }

        @OptionalOption("role", valueName: "role", help: "Only users with this role.") var role: BelayDomain.Role?
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let users = try ClubServices.all { try services.users.listUsers(limit: 200, cursor: $0) }
                .filter { role == nil || $0.role == role }
            if json { return try context.printJSON(users.map(UserOutput.init)) }
            var table = Table(columns: ["id", "handle", "name", "role", "email", "created"])
            for user in users {
                table.append([String(user.id), user.handle, user.displayName, user.role.rawValue, user.email ?? "-",
                              TimeFormatting.local(user.createdAt, in: services.configuration.club.zone)])
            }
            context.printTable(table, emptyMessage: "No users yet. Add one with `belay users create HANDLE --name NAME`.")
        }
    }

    /// `belay users role`.
    struct Role: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "role", abstract: "Change a user's role.")
        }

        @Argument(UsersCommand.handle) var handle: String
        @Argument("role", help: "The new role.") var role: BelayDomain.Role
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.users.setRole(role, userID: try services.user(handle).id)
            if json { return try context.printJSON(UserOutput(user)) }
            context.print("\(user.handle)  \(user.role.rawValue)")
            context.note("\(user.handle) is now \(user.role.rawValue).")
        }
    }

    /// On or off, for a setting.
    enum Switch: String, CaseIterable, ExpressibleByArgument {
        case on, off
    }

    /// `belay users share-name`.
    struct ShareName: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "share-name", abstract: "Show or hide a user's display name on the public pages of their shared rewards.",
                                 discussion: "Pages already shared follow at once. On by default.")
        }

        @Argument(UsersCommand.handle) var handle: String
        @Argument("on|off", help: "Whether the user's share pages show their display name.") var setting: Switch

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            try services.domain.sharePages.setShowsName(setting == .on, userID: user.id)
            context.note(setting == .on ? "\(user.handle)'s share pages show their name, \(user.displayName)."
                                        : "\(user.handle)'s share pages no longer show their name.")
        }
    }

    /// `belay users token`.
    struct Token: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "token",
                abstract: "Issue a new API token for a user and print it (shown only this once).",
                discussion: "Only a hash is stored: a lost token cannot be shown again; issue a new one and revoke the old."
            )
        }

        @Argument(UsersCommand.handle) var handle: String
        @Option("label", valueName: "text", default: "", help: "A note to recognise the token by, e.g. \"Jisoo's iPhone\".") var label: String
        @OptionalOption("expires-in-days", valueName: "days", help: "The token stops working after this many days (1 to 3650); without it, it works until revoked.") var expiresInDays: Int?
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            if let days = expiresInDays, !(1...3650).contains(days) {
                throw CommandLineError.usage("--expires-in-days must be 1 to 3650 (got \(days)).")
            }
            let services = try context.services()
            let user = try services.user(handle)
            let expiresAt = expiresInDays.map { Date().addingTimeInterval(TimeInterval($0) * 86_400) }
            let issued = try services.users.issueToken(userID: user.id, label: label, expiresAt: expiresAt)
            if json { return try context.printJSON(TokenOutput(issued.token, handle: user.handle, secret: issued.secret)) }
            context.print(issued.secret)
            context.note("Token \(issued.token.id) for \(user.handle): give it to them now, it is shown only once. Revoke it with `belay users revoke \(user.handle) --token \(issued.token.id)`.")
        }
    }

    /// `belay users tokens`.
    struct Tokens: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "tokens", abstract: "List a user's API tokens (never the secrets).")
        }

        @Argument(UsersCommand.handle) var handle: String
        @Flag(.json) var json: Bool

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            let tokens = try services.users.tokens(userID: user.id)
            if json { return try context.printJSON(tokens.map { TokenOutput($0, handle: user.handle) }) }
            let zone = services.configuration.club.zone
            var table = Table(columns: ["id", "prefix", "label", "created", "last used", "status"])
            for token in tokens {
                table.append([String(token.id), token.prefix + "…", token.label.isEmpty ? "-" : token.label,
                              TimeFormatting.local(token.createdAt, in: zone),
                              token.lastUsedAt.map { TimeFormatting.local($0, in: zone) } ?? "never",
                              token.revokedAt.map { "revoked " + TimeFormatting.local($0, in: zone) } ?? "active"])
            }
            context.printTable(table, emptyMessage: "\(user.handle) has no tokens. Issue one with `belay users token \(user.handle)`.")
        }
    }

    /// `belay users revoke`.
    struct Revoke: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "revoke", abstract: "Revoke a user's API tokens; they stop working at once.")
        }

        @Argument(UsersCommand.handle) var handle: String
        @OptionalOption("token", valueName: "id", help: "Revoke only this token (see `belay users tokens`); without it every token of the user is revoked.") var token: Int64?

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            if let token {
                guard try services.users.tokens(userID: user.id).contains(where: { $0.id == token }) else {
                    throw CommandLineError.failure("\(user.handle) has no token \(token). Run `belay users tokens \(user.handle)` to see their tokens.")
                }
                _ = try services.users.revokeToken(id: token)
                context.print("1")
                context.note("Revoked token \(token) of \(user.handle).")
            } else {
                let count = try services.users.revokeAllTokens(userID: user.id)
                context.print(String(count))
                context.note(count == 0 ? "\(user.handle) had no active tokens." : "Revoked \(Plural.counted(count, "token")) of \(user.handle).")
            }
        }
    }

    /// `belay users reset-second-factor`.
    struct ResetSecondFactor: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "reset-second-factor",
                abstract: "Remove a member's second factor (a lost or new phone).",
                discussion: """
                    Removes the member's authenticator secret and recovery codes, and any sign-in waiting for them: \
                    the member signs in (console and app) with the first factor alone and may enrol again (with \
                    console.admin_second_factor "required", an admin is sent to enrol at once). The reset is written to the \
                    moderation audit log (belay moderation audit) as reset_second_factor by the operator, with --reason. \
                    Check who is asking first.
                    Example: belay users reset-second-factor jisoo --reason "new phone, asked at the front desk"
                    """
            )
        }

        @Argument(UsersCommand.handle) var handle: String
        @OptionalOption("reason", valueName: "text", help: "Why, kept in the audit log.") var reason: String?
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var id: Int64
            var handle: String
            var hadSecondFactor: Bool
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            let had = try services.domain.secondFactors.reset(userID: user.id, by: .commandLine, reason: reason ?? "")
            if json { return try context.printJSON(Output(id: user.id, handle: user.handle, hadSecondFactor: had)) }
            context.print(had ? "Reset \(user.handle)'s second factor." : "\(user.handle) had no second factor.")
            if had { context.note("\(user.handle) signs in with the first factor alone until they set up an authenticator again.") }
        }
    }

    /// `belay users delete`.
    struct Delete: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "delete",
                abstract: "Delete a user's account, as the member can from the app.",
                discussion: """
                    Erases what identifies the person (name, email, handle: a tombstone `deleted-ID` takes its place), their \
                    sign-in identities, sessions and tokens and their calendar feed; revokes their rewards (badges through the \
                    status list, share pages answer 410); keeps their attendance, anonymous, so meetups' counts stay right; \
                    sends a `user.deleted` webhook; and revokes their Sign in with Apple tokens at Apple. It cannot be undone, \
                    so it asks you to type the handle first (read from standard input: `echo jisoo | belay users delete jisoo` \
                    works too); --yes deletes without asking, for scripts.
                    Example: belay users delete jisoo
                    """
            )
        }

        @Argument(UsersCommand.handle) var handle: String
        @Flag("yes", help: "Delete without asking to type the handle (for scripts).") var yes: Bool
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var id: Int64
            var handle: String
            var tombstone: String
            var revokedRewards: Int
            var appleTokensRevoked: Int
            var appleTokensNotRevoked: Int
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            if !yes { try Self.confirm(user.handle, displayName: user.displayName, context) }
            let (deletion, aftermath) = try AccountErasure(configuration: services.configuration, accounts: services.domain.accounts)
                .eraseAccount(userID: user.id)
            for problem in aftermath.problems { context.note("warning: " + problem) }
            let output = Output(id: user.id, handle: user.handle, tombstone: "deleted-\(user.id)", revokedRewards: deletion.revokedRewardIDs.count,
                                appleTokensRevoked: aftermath.appleTokensRevoked,
                                appleTokensNotRevoked: deletion.appleRefreshTokens.count - aftermath.appleTokensRevoked)
            if json { return try context.printJSON(output) }
            context.print("Deleted \(user.handle) (user \(user.id), now deleted-\(user.id)).")
            context.note("Revoked \(Plural.counted(deletion.revokedRewardIDs.count, "reward")); attendance stays, anonymous. Running servers stop accepting the member's tokens within a second.")
        }

        /// Asks for the handle on standard error and reads it from standard input, as `git` and
        /// `kubectl` confirm what cannot be undone.
        /// - Throws: `CommandLineError.failure` (nothing deleted) when standard input ends
        ///   without a line, or the line is not the handle.
        static func confirm(_ handle: String, displayName: String, _ context: CommandContext) throws {
            let terminal = isatty(STDIN_FILENO) == 1
            if terminal {
                context.errorOutput.write("This erases the account of \(displayName) (\(handle)): their name, email, handle and sign-ins go, their rewards are revoked. It cannot be undone.\nType the handle (\(handle)) to delete it: ")
            }
            guard let typed = readLine(strippingNewline: true) else {
                if terminal { context.note("") }
                throw CommandLineError.failure(
                    "Nothing was deleted: `belay users delete` asks you to type the handle to confirm, and \(terminal ? "nothing was typed" : "standard input is not a terminal and gave no line"). Run it at a terminal, pipe the handle in (`echo \(handle) | belay users delete \(handle)`), or pass --yes to delete without asking.")
            }
            let answer = typed.trimmingCharacters(in: .whitespaces)
            guard answer == handle else {
                throw CommandLineError.failure(
                    "Nothing was deleted: \(answer.isEmpty ? "no handle was typed" : "'\(answer)' was typed"), not the handle '\(handle)'. Run the command again and type \(handle), or pass --yes to delete without asking.")
            }
        }
    }
}
