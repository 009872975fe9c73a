import BelayCore
import BelayRepresentations

/// The files that tell iOS and Android that `/s/…`, `/auth/email/…`, `/invite/…` and `/c/…` (the kiosk's check-in
/// links) belong to the club's app, so a tapped share link opens the app where it is installed (and the page elsewhere).
enum AppLinkFiles {
    /// `/.well-known/apple-app-site-association`: `applinks` in the `components` format,
    /// matching share pages, email sign-in links and invite links. Nil when no iOS app id is configured.
    static func appleAppSiteAssociation(settings: SharePageSettings) -> [UInt8]? {
        guard !settings.iosAppIDs.isEmpty else { return nil }
        var json = JSONOutput()
        json.object { json in
            json.member("applinks") { json in
                json.key("details")
                json.array([settings.iosAppIDs]) { json, ids in
                    json.object { json in
                        json.key("appIDs")
                        json.array(ids) { json, id in json.string(id) }
                        json.key("components")
                        json.array([("/s/*", "Pages of shared rewards"), ("/auth/email/*", "Email sign-in links"),
                                    ("/invite/*", "Invites to join the club"),
                                    ("/c/*", "Check-in links of the front-desk kiosk's QR code")]) { json, component in
                            json.object { json in
                                json.member("/", component.0)
                                json.member("comment", component.1)
                            }
                        }
                    }
                }
            }
        }
        return json.bytes
    }

    /// `/.well-known/assetlinks.json`: the Digital Asset Links statement for Android App
    /// Links. Nil unless both the package and at least one fingerprint are configured.
    static func assetLinks(settings: SharePageSettings) -> [UInt8]? {
        guard !settings.androidPackage.isEmpty, !settings.androidSHA256Fingerprints.isEmpty else { return nil }
        var json = JSONOutput()
        json.array([settings]) { json, settings in
            json.object { json in
                json.key("relation")
                json.array(["delegate_permission/common.handle_all_urls"]) { json, relation in json.string(relation) }
                json.member("target") { json in
                    json.member("namespace", "android_app")
                    json.member("package_name", settings.androidPackage)
                    json.key("sha256_cert_fingerprints")
                    json.array(settings.androidSHA256Fingerprints) { json, fingerprint in json.string(fingerprint) }
                }
            }
        }
        return json.bytes
    }
}
