import Foundation
import BelayDomain

/// `belay users create|list|role|share-name|token|tokens|revoke`: people and their API tokens.
struct UsersCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "users", abstract: "Create users, change roles, issue and revoke API tokens.",
                             subcommands: [Create.self, List.self, Role.self, ShareName.self, Token.self, Tokens.self, Revoke.self])
    }

    init(arguments: ParsedArguments) {}

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
        var secret: String?

        init(_ token: APIToken, handle: String, secret: String? = nil) {
            id = token.id
            user = handle
            prefix = token.prefix
            label = token.label
            createdAt = token.createdAt
            lastUsedAt = token.lastUsedAt
            revokedAt = token.revokedAt
            self.secret = secret
        }
    }

    /// `belay users create`.
    struct Create: ParsableCommand {
        static let name = Option<String>("name", valueName: "display name", help: "The name shown in the app.")
        static let email = OptionalOption<String>("email", valueName: "address", help: "The user's email address (unique).")
        static let role = Option<BelayDomain.Role>("role", valueName: "role", default: .member, help: "What the user may do.")
        static let token = Flag("token", help: "Also issue an API token and print it (shown only this once).")

        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "create",
                abstract: "Create a user (and optionally their first API token).",
                discussion: "Example: belay users create jisoo --name \"Jisoo Kim\" --role host --token",
                arguments: [UsersCommand.handle, name, email, role, token, CommonOptions.json]
            )
        }

        let handle: String, name: String, email: String?, role: BelayDomain.Role, token: Bool, json: Bool

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            name = arguments[Self.name]
            email = arguments[Self.email]
            role = arguments[Self.role]
            token = arguments[Self.token]
            json = arguments[CommonOptions.json]
        }

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
        static let role = OptionalOption<BelayDomain.Role>("role", valueName: "role", help: "Only users with this role.")

        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "list", abstract: "List users, oldest first.", arguments: [role, CommonOptions.json])
        }

        let role: BelayDomain.Role?, json: Bool

        init(arguments: ParsedArguments) {
            role = arguments[Self.role]
            json = arguments[CommonOptions.json]
        }

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
        static let role = Argument<BelayDomain.Role>("role", help: "The new role.")

        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "role", abstract: "Change a user's role.", arguments: [UsersCommand.handle, role, CommonOptions.json])
        }

        let handle: String, role: BelayDomain.Role, json: Bool

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            role = arguments[Self.role]
            json = arguments[CommonOptions.json]
        }

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
        static let setting = Argument<Switch>("on|off", help: "Whether the user's share pages show their display name.")

        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "share-name", abstract: "Show or hide a user's display name on the public pages of their shared rewards.",
                                 discussion: "Pages already shared follow at once. On by default.",
                                 arguments: [UsersCommand.handle, setting])
        }

        let handle: String, setting: Switch

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            setting = arguments[Self.setting]
        }

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
        static let label = Option<String>("label", valueName: "text", default: "", help: "A note to recognise the token by, e.g. \"Jisoo's iPhone\".")

        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "token",
                abstract: "Issue a new API token for a user and print it (shown only this once).",
                discussion: "Only a hash is stored: a lost token cannot be shown again; issue a new one and revoke the old.",
                arguments: [UsersCommand.handle, label, CommonOptions.json]
            )
        }

        let handle: String, label: String, json: Bool

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            label = arguments[Self.label]
            json = arguments[CommonOptions.json]
        }

        func run(_ context: CommandContext) throws {
            let services = try context.services()
            let user = try services.user(handle)
            let issued = try services.users.issueToken(userID: user.id, label: label)
            if json { return try context.printJSON(TokenOutput(issued.token, handle: user.handle, secret: issued.secret)) }
            context.print(issued.secret)
            context.note("Token \(issued.token.id) for \(user.handle): give it to them now, it is shown only once. Revoke it with `belay users revoke \(user.handle) --token \(issued.token.id)`.")
        }
    }

    /// `belay users tokens`.
    struct Tokens: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "tokens", abstract: "List a user's API tokens (never the secrets).",
                                 arguments: [UsersCommand.handle, CommonOptions.json])
        }

        let handle: String, json: Bool

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            json = arguments[CommonOptions.json]
        }

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
        static let token = OptionalOption<Int64>("token", valueName: "id", help: "Revoke only this token (see `belay users tokens`); without it every token of the user is revoked.")

        static var configuration: CommandConfiguration {
            CommandConfiguration(name: "revoke", abstract: "Revoke a user's API tokens; they stop working at once.",
                                 arguments: [UsersCommand.handle, token])
        }

        let handle: String, token: Int64?

        init(arguments: ParsedArguments) {
            handle = arguments[UsersCommand.handle]
            token = arguments[Self.token]
        }

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
                context.note(count == 0 ? "\(user.handle) had no active tokens." : "Revoked \(count) token\(count == 1 ? "" : "s") of \(user.handle).")
            }
        }
    }
}
