/// The built-in default of every setting, as JSON. It is also the schema: a key that is not
/// here is unknown, and each value's JSON type is the type the key must have. The
/// `config.json` at the top of the repository holds the same values (a test keeps them equal).
enum BuiltInDefaults {
    static let json = """
    {
      "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "threads": 0,
        "connection_timeout_seconds": 30,
        "header_timeout_seconds": 10,
        "shutdown_grace_seconds": 10,
        "max_connections": 8192,
        "max_connections_per_ip": 256,
        "max_body_bytes": 65536,
        "public_base_url": "http://127.0.0.1:8080",
        "trusted_proxies": ""
      },
      "data_directory": "./data",
      "database_path": "",
      "database_durability": "full",
      "database": {
        "url": "",
        "max_connections": 8,
        "writer_connections": 4,
        "statement_timeout_ms": 5000
      },
      "assets_directory": "./Assets",
      "migrations_directory": "./Migrations",
      "fonts": {
        "bold": "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf",
        "regular": "/usr/share/fonts/opentype/inter/Inter-Regular.otf",
        "fallbacks": [
          "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
          "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansTamil-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansTelugu-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansKannada-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansMalayalam-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansGujarati-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansGurmukhi-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansOriya-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansSinhala-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansKhmer-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansLao-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansEthiopic-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
          "/usr/share/fonts/truetype/noto/NotoSansSymbols-Regular.ttf"
        ],
        "emoji": "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
        "last_resort": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
      },
      "club": {
        "name": "Belay Climbing Club",
        "time_zone": "Asia/Seoul",
        "locale": "ko_KR",
        "share_link_base_url": "",
        "logo": ""
      },
      "check_in": {
        "opens_minutes_before_start": 30,
        "closes_minutes_after_end": 120,
        "code_step_seconds": 30,
        "max_wrong_attempts": 5,
        "retention_days": 7
      },
      "rewards": {
        "milestones": {
          "1": "jug-gold",
          "10": "crimp-silver",
          "25": "sloper-emerald",
          "50": "pinch-obsidian",
          "100": "volume-aurora"
        },
        "streak_milestones": {},
        "rarity_weights": {
          "common": 60,
          "uncommon": 25,
          "rare": 12,
          "epic": 3
        }
      },
      "render": {
        "workers": 2,
        "story_format": "png",
        "jpeg_quality": 90,
        "max_image_side": 8192,
        "max_decoded_bytes": 67108864,
        "max_attempts": 5,
        "retry_base_seconds": 30,
        "achievement_line": 1
      },
      "backfill": {
        "daily_at": "",
        "every_minutes": 0,
        "jobs": 2,
        "lease_seconds": 60
      },
      "share": {
        "instagram_app_id": "",
        "facebook_app_id": "",
        "stories_background": "image",
        "stories_background_width": 720,
        "stories_background_height": 1280,
        "max_events_per_reward": 50,
        "events_retention_days": 400
      },
      "app_links": {
        "ios_app_ids": "",
        "android_package": "",
        "android_sha256_fingerprints": "",
        "app_store_url": "",
        "play_store_url": ""
      },
      "webhooks": {
        "workers": 1,
        "timeout_seconds": 10,
        "max_attempts": 10,
        "retry_base_seconds": 10,
        "disable_after_hours": 24,
        "poll_milliseconds": 250,
        "allow_private_addresses": 0,
        "retention_days": 30
      },
      "calendar": {
        "alarm_minutes_before": 60
      },
      "meetups": {
        "created_by": "members",
        "complete_every_seconds": 60
      },
      "waitlist": {
        "claim_minutes": 0,
        "cutoff_minutes": 120
      },
      "accounts": {
        "sign_up": "open",
        "access_token_minutes": 60,
        "refresh_token_days": 60,
        "email_code_minutes": 10,
        "max_wrong_email_codes": 5,
        "recent_sign_in_minutes": 10
      },
      "auth": {
        "apple": {
          "client_ids": "",
          "jwks_url": "https://appleid.apple.com/auth/keys",
          "team_id": "",
          "key_id": "",
          "private_key_file": "",
          "token_url": "https://appleid.apple.com/auth/token",
          "revoke_url": "https://appleid.apple.com/auth/revoke"
        },
        "google": {
          "client_ids": "",
          "jwks_url": "https://www.googleapis.com/oauth2/v3/certs"
        }
      },
      "mail": {
        "smtp_url": "",
        "username": "",
        "password": "",
        "from": "",
        "require_tls": 1
      },
      "rate_limits": {
        "auth_per_address_per_minute": 30,
        "auth_per_email_per_hour": 5,
        "writes_per_member_per_minute": 240,
        "share_events_per_member_per_minute": 30,
        "public_per_address_per_minute": 600
      },
      "push": {
        "reminder_minutes_before": 120,
        "offer_warning_minutes": 5,
        "retention_days": 30,
        "ca_file": "",
        "apns": {
          "key_file": "",
          "key_id": "",
          "team_id": "",
          "url": "https://api.push.apple.com",
          "sandbox_url": "https://api.sandbox.push.apple.com"
        },
        "fcm": {
          "service_account_file": "",
          "url": "https://fcm.googleapis.com"
        }
      }
    }
    """

    /// Objects whose keys are chosen by the club rather than fixed by Belay; a file that sets
    /// one replaces it whole. The value is the JSON type of each entry's value.
    static let openMaps: [String: ConfigurationSchema.ValueType] = [
        "rewards.milestones": .string,
        "rewards.streak_milestones": .string,
        "rewards.rarity_weights": .integer,
    ]

    /// Keys holding file-system paths; a relative path is resolved against the directory of
    /// the configuration file it came from (or the working directory for the environment).
    static let pathKeys: Set<String> = [
        "data_directory", "database_path", "assets_directory", "migrations_directory",
        "fonts.bold", "fonts.regular", "fonts.emoji", "fonts.last_resort", "auth.apple.private_key_file",
        "push.apns.key_file", "push.fcm.service_account_file", "push.ca_file",
        "club.logo",
    ]

    /// Keys holding lists of file-system paths, each resolved like a `pathKeys` value.
    static let pathListKeys: Set<String> = ["fonts.fallbacks"]
}
