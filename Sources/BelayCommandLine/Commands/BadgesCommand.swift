import Foundation
import BelayComposition
import BelayArguments
import BelayDomain
import BelayPipeline

/// `belay badges verify|rotate-key`: the Open Badges 3.0 credential baked into every sticker.
struct BadgesCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(name: "badges", abstract: "Check the badge baked into a sticker, and rotate the club's signing key.",
                             subcommands: [Verify.self, RotateKey.self])
    }

    /// `belay badges verify`.
    struct Verify: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "verify",
                abstract: "Check the badge baked into a sticker PNG: who earned what, where and when, or why it does not verify.",
                discussion: "Checks the signature against the club's published keys (current and rotated) and the revocation of the reward. Exits 0 when it verifies, 1 otherwise.")
        }

        @Argument("file", help: "A sticker PNG, as downloaded or shared.") var file: String
        @Flag(.json) var json: Bool

        struct Output: Encodable {
            var valid: Bool
            var reason: String?
            var rewardId: Int64?
            var hold: String?
            var member: String?
            var criteria: String?
            var validFrom: String?
            var issuer: String?
            var key: String?
        }

        func run(_ context: CommandContext) throws {
            let path = context.absolutePath(file)
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw CommandLineError.failure("Cannot read \(path); check the path.")
            }
            let services = try context.services()
            let issuer = BadgeIssuer(settings: BadgeSettings(configuration: services.configuration))
            guard var verdict = issuer.verify(sticker: Array(bytes)) else {
                throw CommandLineError.failure("\(path) carries no badge (no openbadgecredential iTXt chunk); is it a Belay sticker?")
            }
            var member: String?
            if verdict.isValid, let rewardID = verdict.rewardID {
                if let reward = try? services.rewards.reward(id: rewardID) {
                    if reward.isRevoked { verdict = verdict.revoked() }
                    member = try? services.users.user(id: reward.memberID).displayName
                } else {
                    verdict = .invalid("the reward it was issued for (\(rewardID)) is not in this club's database")
                }
            }
            if json {
                try context.printJSON(Output(valid: verdict.isValid, reason: verdict.reason, rewardId: verdict.rewardID,
                                             hold: verdict.holdName, member: member, criteria: verdict.criteria,
                                             validFrom: verdict.validFrom, issuer: verdict.issuerName, key: verdict.keyThumbprint))
                if !verdict.isValid { throw CommandLineError.failure("The badge does not verify: \(verdict.reason ?? "unknown reason").") }
                return
            }
            guard verdict.isValid else {
                throw CommandLineError.failure("The badge in \(path) does not verify: \(verdict.reason ?? "unknown reason").")
            }
            context.print("valid: \(verdict.holdName ?? "?"), earned by \(member ?? "a member") of \(verdict.issuerName ?? "the club")")
            context.print(verdict.criteria ?? "")
            context.print("valid from \(verdict.validFrom ?? "?"), signed with key \(verdict.keyThumbprint ?? "?"), reward \(verdict.rewardID.map(String.init) ?? "?")")
        }
    }

    /// `belay badges rotate-key`.
    struct RotateKey: ParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(
                name: "rotate-key",
                abstract: "Make a new badge signing key for new stickers; earlier keys stay published, so earlier badges still verify.",
                discussion: "Keys live in <data_directory>/badge-keys (mode 0700), or in rewards.badge_keys_directory when set; with several nodes, rotate in one directory and give every node a copy of it. Stickers rendered from now on are signed with the new key.")
        }

        func run(_ context: CommandContext) throws {
            let configuration = try context.configuration()
            let issuer = BadgeIssuer(settings: BadgeSettings(configuration: configuration))
            let previous = try? issuer.keys.current().thumbprint
            let key: Ed25519Key
            do {
                key = try issuer.keys.rotate()
            } catch let error as PipelineError {
                throw CommandLineError.failure(error.description)
            }
            context.print(key.thumbprint)
            context.note(previous.map { "New badge key \(key.thumbprint); \($0) stays published for earlier badges." }
                         ?? "Made the club's first badge key \(key.thumbprint).")
        }
    }
}
