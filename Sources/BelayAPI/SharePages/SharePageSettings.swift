import Foundation

/// What share pages and app-link files need beyond the domain: the club's language and its
/// apps. Built from `config.json` (`club`, `app_links`).
public struct SharePageSettings: Sendable {
    /// The club's name, on every page.
    public var clubName: String
    /// The club's locale (`ko_KR`): the pages' language and how dates read.
    public var clubLocale: String
    /// iOS app ids (`TEAMID.bundle.id`) for `apple-app-site-association`.
    public var iosAppIDs: [String]
    /// The Android application id for `assetlinks.json`.
    public var androidPackage: String
    /// SHA-256 fingerprints of the Android signing certificates.
    public var androidSHA256Fingerprints: [String]
    /// Store pages of the club's app, linked from share pages; empty when none.
    public var appStoreURL: String
    public var playStoreURL: String

    public init(clubName: String, clubLocale: String, iosAppIDs: [String], androidPackage: String,
                androidSHA256Fingerprints: [String], appStoreURL: String, playStoreURL: String) {
        self.clubName = clubName
        self.clubLocale = clubLocale
        self.iosAppIDs = iosAppIDs
        self.androidPackage = androidPackage
        self.androidSHA256Fingerprints = androidSHA256Fingerprints
        self.appStoreURL = appStoreURL
        self.playStoreURL = playStoreURL
    }

    /// The language of the pages: the locale's language when Belay speaks it (ko, ja, en), else English.
    var language: SharePageLanguage { SharePageLanguage(locale: clubLocale) }
}
