import Foundation
import BelayArguments

/// `belay`: the top of the command tree. New top-level commands go in `subcommands`.
struct BelayRootCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "belay",
            abstract: "Run a climbing club's meetups, check-ins and hold rewards.",
            discussion: """
            Data goes to standard output (tables, or JSON with --json); messages go to standard error.
            Exit status: 0 on success, 64 when the command line is wrong, 1 when the work failed.
            Settings come from --config FILE, else $BELAY_CONFIG, else ./config.json, else the
            built-in defaults; BELAY_<KEY_PATH> variables override single keys (BELAY_SERVER_PORT=9000).
            """,
            subcommands: BelayRootCommand.subcommands
        )
    }

    /// Top-level commands in help order. Add yours here.
    static let subcommands: [any ParsableCommand.Type] = [
        ServeCommand.self,
        WorkerCommand.self,
        UsersCommand.self,
        InvitesCommand.self,
        PushCommand.self,
        CalendarCommand.self,
        MeetupsCommand.self,
        AttendeesCommand.self,
        RewardsCommand.self,
        HoldsCommand.self,
        GymsCommand.self,
        LogbookCommand.self,
        StatsCommand.self,
        WebhooksCommand.self,
        ReportsCommand.self,
        ModerationCommand.self,
        RenderCommand.self,
        BackfillCommand.self,
        GarbageCollectCommand.self,
        ImagesCommand.self,
        MigrateCommand.self,
        DatabaseCommand.self,
        BadgesCommand.self,
        ConfigCommand.self,
        DevCommand.self,
    ]

}
