import BelayCore
import Testing

/// Every form a PostgreSQL or SMTP password can take in a setting is shown as `***`.
@Suite struct PasswordRedactionTests {
    @Test(arguments: [
        ("postgres://belay:hunter2@db.example/belay", "postgres://belay:***@db.example/belay"),
        ("postgresql://belay@db.example/belay?password=hunter2&sslmode=require", "postgresql://belay@db.example/belay?password=***&sslmode=require"),
        ("postgres://db.example/belay?sslmode=verify-full&PASSWORD=hunter2", "postgres://db.example/belay?sslmode=verify-full&PASSWORD=***"),
        ("postgres://db.example/belay?sslpassword=hunter2", "postgres://db.example/belay?sslpassword=***"),
        ("host=db.example dbname=belay password=hunter2 sslmode=require", "host=db.example dbname=belay password=*** sslmode=require"),
        ("host=db.example password = 'hunter 2' user=belay", "host=db.example password = *** user=belay"),
        ("smtps://mailer:hunter2@smtp.example:465", "smtps://mailer:***@smtp.example:465"),
        ("postgres://db.example/belay?sslmode=require", "postgres://db.example/belay?sslmode=require"),
        ("/srv/belay/belay.sqlite3", "/srv/belay/belay.sqlite3"),
    ])
    func passwordsAreMasked(input: String, shown: String) {
        #expect(PasswordRedaction.redacted(input) == shown)
        #expect(!PasswordRedaction.redacted(input).contains("hunter"))
    }
}
