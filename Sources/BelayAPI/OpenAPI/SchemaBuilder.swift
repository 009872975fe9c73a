import BelayCore
import BelayDomain
import BelayHTTP

/// Small builders for the JSON Schema (2020-12, as OpenAPI 3.1 uses it) in the API document.
enum Schema {
    static let string: JSONValue = ["type": "string"]
    static let integer: JSONValue = ["type": "integer"]
    static let boolean: JSONValue = ["type": "boolean"]
    static let dateTime: JSONValue = ["type": "string", "format": "date-time"]

    /// An RFC 3339 date-time with an offset, described (which offset it is written with, say).
    static func dateTime(_ description: String) -> JSONValue {
        ["type": "string", "format": "date-time", "description": .string(description)]
    }
    static let color: JSONValue = ["type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"]
    static let uri: JSONValue = ["type": "string", "format": "uri"]

    static func number(_ description: String) -> JSONValue { ["type": "number", "description": .string(description)] }
    static let latitude: JSONValue = ["type": "number", "minimum": -90, "maximum": 90, "description": "Degrees north."]
    static let longitude: JSONValue = ["type": "number", "minimum": -180, "maximum": 180, "description": "Degrees east."]
    static let tags: JSONValue = ["type": "array", "items": enumeration(MeetupTag.allCases.map(\.rawValue)),
                                  "description": .string("At most \(MeetupTag.maximumPerMeetup) tags, each once.")]
    static func string(_ description: String) -> JSONValue { ["type": "string", "description": .string(description)] }
    static func integer(_ description: String) -> JSONValue { ["type": "integer", "description": .string(description)] }

    /// A text field as the domain's `rule` takes it: its lengths in code points, and a pattern
    /// without the control characters it refuses (and, when it must not be empty, with one
    /// character that is not whitespace, as it is trimmed first).
    /// `allowingEmpty` states an optional text that may also be sent empty.
    static func text(_ rule: TextRule, _ description: String? = nil, allowingEmpty: Bool = false) -> JSONValue {
        let refused = rule.refusedCharacterClass
        let mayBeEmpty = allowingEmpty || rule.lengths.lowerBound == 0
        let pattern = mayBeEmpty ? "^[^\(refused)]*$" : "^[^\(refused)]*[^\\s\(refused)][^\(refused)]*$"
        var members: [String: JSONValue] = ["type": "string", "maxLength": .int(Int64(rule.lengths.upperBound)), "pattern": .string(pattern)]
        if !mayBeEmpty { members["minLength"] = .int(Int64(rule.lengths.lowerBound)) }
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// A database id: a positive 64-bit integer.
    static func id(_ description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "integer", "format": "int64", "minimum": 1, "maximum": .int(Int64.max)]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// A meetup's capacity, as the domain takes it.
    static let capacity: JSONValue = ["type": "integer", "minimum": .int(Int64(MeetupService.capacities.lowerBound)),
                                      "maximum": .int(Int64(MeetupService.capacities.upperBound)),
                                      "description": "How many may be going; more join the waitlist."]

    /// A cursor: opaque to the client, base64url, given out as `next_cursor` by the same list.
    static let cursor: JSONValue = ["type": "string", "pattern": "^[A-Za-z0-9_-]{1,400}$",
                                    "description": "The `next_cursor` of the previous page of the same list; leave out for the first page."]

    /// An IANA time zone name (`Asia/Seoul`, `America/Sao_Paulo`, `UTC`), as the domain takes
    /// it: at most 64 characters, a name of the tz database (not an offset such as `+09:00` or
    /// `GMT+9`). `role` says what the zone is for.
    static func timeZone(_ role: String) -> JSONValue {
        ["type": "string", "format": "iana-time-zone", "maxLength": 64,
         "pattern": #"^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$"#,
         "description": .string("An IANA time zone name from the tz database, such as `Asia/Seoul` or `America/Sao_Paulo` (not an offset such as `+09:00`; an unknown name is refused with 422 naming `time_zone`). " + role)]
    }

    /// `{"$ref": "#/components/schemas/<name>"}`.
    static func ref(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/" + name)] }

    /// One of `values`.
    static func enumeration(_ values: [String], description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = ["type": "string", "enum": .array(values.map(JSONValue.string))]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// The schema, or null.
    static func nullable(_ schema: JSONValue) -> JSONValue {
        if case .object(var members) = schema, case .string(let type)? = members["type"], members["enum"] == nil {
            members["type"] = [.string(type), "null"]
            return .object(members)
        }
        return ["anyOf": [schema, ["type": "null"]]]
    }

    static func array(of items: JSONValue) -> JSONValue { ["type": "array", "items": items] }

    /// A closed object: every listed property is required unless named in `optional`.
    static func object(_ properties: KeyValuePairs<String, JSONValue>, optional: Set<String> = [],
                       description: String? = nil) -> JSONValue {
        object(pairs: properties.map { ($0.key, $0.value) }, optional: optional, description: description)
    }

    /// `object(_:optional:description:)` from an array of pairs.
    static func object(pairs properties: [(String, JSONValue)], optional: Set<String> = [],
                       description: String? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": "object",
            "properties": .object(Dictionary(uniqueKeysWithValues: properties.map { ($0.0, $0.1) })),
            "required": .array(properties.map(\.0).filter { !optional.contains($0) }.map(JSONValue.string)),
            "additionalProperties": false,
        ]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// A string-to-string map (pasteboard items, intent extras).
    static func stringMap(_ description: String) -> JSONValue {
        ["type": "object", "additionalProperties": ["type": "string"], "description": .string(description)]
    }

    /// `{"items": [<item>], "next_cursor": string|null}`.
    static func list(of item: String) -> JSONValue {
        object(["items": array(of: ref(item)),
                "next_cursor": nullable(string("Pass as `cursor` to get the next page; null on the last page."))])
    }
}
