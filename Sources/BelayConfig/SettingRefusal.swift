import Foundation

/// Why one entry of a setting's value is refused.
struct SettingRefusal: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
