import BelayCore

extension BelayConfiguration {
    /// The effective settings as `config.json`-shaped JSON (resolved paths, the effective
    /// database path and thread count), for `belay config show`. Loading it again gives the
    /// same configuration.
    public func formattedJSON() -> String {
        func string(_ value: String) -> JSONValue { .string(value) }
        func integer(_ value: Int) -> JSONValue { .int(Int64(value)) }
        let tree = JSONValue.object([
            ("server", .object([
                ("host", string(server.host)),
                ("port", integer(server.port)),
                ("threads", integer(server.threads)),
                ("connection_timeout_seconds", integer(server.connectionTimeoutSeconds)),
                ("header_timeout_seconds", integer(server.headerTimeoutSeconds)),
                ("shutdown_grace_seconds", integer(server.shutdownGraceSeconds)),
                ("max_connections", integer(server.maxConnections)),
                ("max_connections_per_ip", integer(server.maxConnectionsPerIP)),
                ("max_body_bytes", integer(server.maxBodyBytes)),
                ("public_base_url", string(server.publicBaseURL)),
                ("trusted_proxies", string(server.trustedProxies.joined(separator: ","))),
            ])),
            ("data_directory", string(dataDirectory)),
            ("database_path", string(databasePath)),
            ("database_durability", string(databaseDurability.rawValue)),
            ("database", .object([
                ("url", string(PasswordRedaction.redacted(database.url))),
                ("max_connections", integer(database.maxConnections)),
                ("writer_connections", integer(database.writerConnections)),
                ("statement_timeout_ms", integer(database.statementTimeoutMilliseconds)),
            ])),
            ("assets_directory", string(assetsDirectory)),
            ("migrations_directory", string(migrationsDirectory)),
            ("fonts", .object([
                ("bold", string(fonts.bold)),
                ("regular", string(fonts.regular)),
                ("fallbacks", .array(fonts.fallbacks.map(string))),
                ("emoji", string(fonts.emoji)),
                ("last_resort", string(fonts.lastResort)),
            ])),
            ("club", .object([
                ("name", string(club.name)),
                ("time_zone", string(club.timeZone)),
                ("locale", string(club.locale)),
                ("share_link_base_url", string(club.shareLinkBaseURL)),
                ("logo", string(club.logo)),
            ])),
            ("check_in", .object([
                ("opens_minutes_before_start", integer(checkIn.opensMinutesBeforeStart)),
                ("closes_minutes_after_end", integer(checkIn.closesMinutesAfterEnd)),
                ("code_step_seconds", integer(checkIn.codeStepSeconds)),
                ("max_wrong_attempts", integer(checkIn.maxWrongAttempts)),
                ("retention_days", integer(checkIn.retentionDays)),
            ])),
            ("rewards", .object([
                ("milestones", .object(rewards.milestones.sorted { $0.key < $1.key }.map { (String($0.key), string($0.value)) })),
                ("streak_milestones", .object(rewards.streakMilestones.sorted { $0.key < $1.key }.map { (String($0.key), string($0.value)) })),
                ("rarity_weights", .object(rewards.rarityWeights.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }.map { ($0.key, integer($0.value)) })),
            ])),
            ("render", .object([
                ("workers", integer(render.workers)),
                ("story_format", string(render.storyFormat.rawValue)),
                ("jpeg_quality", integer(render.jpegQuality)),
                ("max_image_side", integer(render.maxImageSide)),
                ("max_decoded_bytes", integer(render.maxDecodedBytes)),
                ("max_attempts", integer(render.maxAttempts)),
                ("retry_base_seconds", integer(render.retryBaseSeconds)),
                ("achievement_line", integer(render.achievementLine ? 1 : 0)),
            ])),
            ("backfill", .object([
                ("daily_at", string(backfill.dailyAt?.description ?? "")),
                ("every_minutes", integer(backfill.everyMinutes)),
                ("jobs", integer(backfill.jobs)),
                ("lease_seconds", integer(backfill.leaseSeconds)),
            ])),
            ("share", .object([
                ("instagram_app_id", string(share.instagramAppID)),
                ("facebook_app_id", string(share.facebookAppID)),
                ("stories_background", string(share.storiesBackground.rawValue)),
                ("stories_background_width", integer(share.storiesBackgroundWidth)),
                ("stories_background_height", integer(share.storiesBackgroundHeight)),
                ("max_events_per_reward", integer(share.maxEventsPerReward)),
                ("events_retention_days", integer(share.eventsRetentionDays)),
            ])),
            ("app_links", .object([
                ("ios_app_ids", string(appLinks.iosAppIDs.joined(separator: ","))),
                ("android_package", string(appLinks.androidPackage)),
                ("android_sha256_fingerprints", string(appLinks.androidSHA256Fingerprints.joined(separator: ","))),
                ("app_store_url", string(appLinks.appStoreURL)),
                ("play_store_url", string(appLinks.playStoreURL)),
            ])),
            ("webhooks", .object([
                ("workers", integer(webhooks.workers)),
                ("timeout_seconds", integer(webhooks.timeoutSeconds)),
                ("max_attempts", integer(webhooks.maxAttempts)),
                ("retry_base_seconds", integer(webhooks.retryBaseSeconds)),
                ("disable_after_hours", integer(webhooks.disableAfterHours)),
                ("poll_milliseconds", integer(webhooks.pollMilliseconds)),
                ("allow_private_addresses", integer(webhooks.allowPrivateAddresses ? 1 : 0)),
                ("retention_days", integer(webhooks.retentionDays)),
            ])),
            ("calendar", .object([
                ("alarm_minutes_before", integer(calendar.alarmMinutesBefore)),
            ])),
            ("meetups", .object([
                ("created_by", string(meetups.createdBy)),
                ("complete_every_seconds", integer(meetups.completeEverySeconds)),
            ])),
            ("waitlist", .object([
                ("claim_minutes", integer(waitlist.claimMinutes)),
                ("cutoff_minutes", integer(waitlist.cutoffMinutes)),
            ])),
            ("accounts", .object([
                ("sign_up", string(accounts.signUp)),
                ("access_token_minutes", integer(accounts.accessTokenMinutes)),
                ("refresh_token_days", integer(accounts.refreshTokenDays)),
                ("email_code_minutes", integer(accounts.emailCodeMinutes)),
                ("max_wrong_email_codes", integer(accounts.maxWrongEmailCodes)),
                ("recent_sign_in_minutes", integer(accounts.recentSignInMinutes)),
            ])),
            ("auth", .object([
                ("apple", .object([
                    ("client_ids", string(auth.apple.clientIDs.joined(separator: ","))),
                    ("jwks_url", string(auth.apple.jwksURL)),
                    ("team_id", string(auth.apple.teamID)),
                    ("key_id", string(auth.apple.keyID)),
                    ("private_key_file", string(auth.apple.privateKeyFile)),
                    ("token_url", string(auth.apple.tokenURL)),
                    ("revoke_url", string(auth.apple.revokeURL)),
                ])),
                ("google", .object([
                    ("client_ids", string(auth.google.clientIDs.joined(separator: ","))),
                    ("jwks_url", string(auth.google.jwksURL)),
                ])),
            ])),
            ("mail", .object([
                ("smtp_url", string(PasswordRedaction.redacted(mail.smtpURL))),
                ("username", string(mail.username)),
                // The password is never shown; an empty one stays empty so the output says whether one is set.
                ("password", string(mail.password.isEmpty ? "" : "********")),
                ("from", string(mail.from)),
                ("require_tls", integer(mail.requireTLS ? 1 : 0)),
            ])),
            ("rate_limits", .object([
                ("auth_per_address_per_minute", integer(rateLimits.authPerAddressPerMinute)),
                ("auth_per_email_per_hour", integer(rateLimits.authPerEmailPerHour)),
                ("writes_per_member_per_minute", integer(rateLimits.writesPerMemberPerMinute)),
                ("share_events_per_member_per_minute", integer(rateLimits.shareEventsPerMemberPerMinute)),
                ("public_per_address_per_minute", integer(rateLimits.publicPerAddressPerMinute)),
            ])),
            ("push", .object([
                ("reminder_minutes_before", integer(push.reminderMinutesBefore)),
                ("offer_warning_minutes", integer(push.offerWarningMinutes)),
                ("retention_days", integer(push.retentionDays)),
                ("ca_file", string(push.caFile)),
                ("apns", .object([
                    ("key_file", string(push.apns.keyFile)),
                    ("key_id", string(push.apns.keyID)),
                    ("team_id", string(push.apns.teamID)),
                    ("url", string(push.apns.url)),
                    ("sandbox_url", string(push.apns.sandboxURL)),
                ])),
                ("fcm", .object([
                    ("service_account_file", string(push.fcm.serviceAccountFile)),
                    ("url", string(push.fcm.url)),
                ])),
            ])),
        ])
        return tree.prettyPrinted()
    }
}
