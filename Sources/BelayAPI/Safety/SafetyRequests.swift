import BelayCore
import BelayDomain
import BelayHTTP
import Foundation

/// `POST /v1/reports`.
struct ReportRequest: Decodable {
    var subjectType: String
    var subjectID: String
    var reason: String
    var note: String?

    enum CodingKeys: String, CodingKey {
        case reason, note
        case subjectType = "subject_type"
        case subjectID = "subject_id"
    }

    /// Takes `subject_id` as a string or a number, as the app has it.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subjectType = try container.decode(String.self, forKey: .subjectType)
        if let number = try? container.decode(Int64.self, forKey: .subjectID) {
            subjectID = String(number)
        } else {
            subjectID = try container.decode(String.self, forKey: .subjectID)
        }
        reason = try container.decode(String.self, forKey: .reason)
        note = try container.decodeIfPresent(String.self, forKey: .note)
    }

    /// The report, its names checked.
    /// - Throws: `HTTPError` 422 `invalid_field` naming `subject_type` or `reason` and the values it takes.
    func report() throws -> NewReport {
        NewReport(subjectType: try SafetyField.value(subjectType, field: "subject_type", as: ReportSubjectType.self),
                  subjectID: subjectID, reason: try SafetyField.value(reason, field: "reason", as: ReportReason.self), note: note ?? "")
    }
}

/// `POST /v1/moderation/actions`.
struct ModerationActionRequest: Decodable {
    var action: String
    var subjectType: String
    var subjectID: String
    var reason: String
    var until: Date?

    enum CodingKeys: String, CodingKey {
        case action, reason, until
        case subjectType = "subject_type"
        case subjectID = "subject_id"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        subjectType = try container.decode(String.self, forKey: .subjectType)
        if let number = try? container.decode(Int64.self, forKey: .subjectID) {
            subjectID = String(number)
        } else {
            subjectID = try container.decode(String.self, forKey: .subjectID)
        }
        reason = try container.decode(String.self, forKey: .reason)
        until = try container.decodeIfPresent(Date.self, forKey: .until)
    }

    /// - Throws: `HTTPError` 422 `invalid_field` naming `action` or `subject_type`.
    func request() throws -> ModerationRequest {
        let action = try SafetyField.value(action, field: "action", as: ModerationActionKind.self, among: ModerationActionKind.requestable)
        if until != nil && action != .suspend {
            throw HTTPError.unprocessable(code: "invalid_field", detail: "`until` goes only with `suspend`; leave it out for \(action.rawValue).",
                                          extensions: ["field": "until"])
        }
        return ModerationRequest(action: action, subjectType: try SafetyField.value(subjectType, field: "subject_type", as: ReportSubjectType.self),
                                 subjectID: subjectID, reason: reason, until: until)
    }
}

/// `POST /v1/me/terms`.
struct TermsRequest: Decodable {
    var version: String
}

/// Reading a closed set of names from a body.
enum SafetyField {
    /// `text` as one of `T`'s cases (or of `among`).
    /// - Throws: `HTTPError` 422 `invalid_field` naming the field and the values it takes.
    static func value<T: RawRepresentable & CaseIterable>(_ text: String, field: String, as type: T.Type,
                                                          among allowed: [T]? = nil) throws -> T where T.RawValue == String {
        let choices = allowed ?? Array(T.allCases)
        guard let value = T(rawValue: text), choices.contains(where: { $0.rawValue == value.rawValue }) else {
            let names = choices.map(\.rawValue).joined(separator: ", ")
            throw HTTPError.unprocessable(code: "invalid_field", detail: "`\(field)` is one of \(names); got \(JSONOutput.quoted(String(text.prefix(80)))).",
                                          extensions: ["field": .string(field)])
        }
        return value
    }
}
