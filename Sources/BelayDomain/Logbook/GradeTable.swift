import Foundation

/// The difficulty score of every grade of every scale Belay knows, after OpenBeta's
/// `sandbag` conversion tables (MIT licence, github.com/OpenBeta/sandbag, `src/data/boulder.csv`
/// and `src/data/routes.csv` at commit 002642eb): each grade is the range of scores the
/// published table gives it on its axis (0…107 for boulders and for routes alike), and the
/// beginner/intermediate/advanced/expert bands are the same source's.
///
/// A test reads the published CSV files and checks every score of every scale against this
/// table.
public enum GradeTable {
    /// Each scale's grades in order, with the first and last score the published table gives them.
    static let grades: [GradeScale: [(name: String, lowest: Int, highest: Int)]] = [
        .v: parse("VB-:0-11 VB:12-23 VB+:24-35 V0-:36-39 V0:40-43 V0+:44-47 V1:48-52 V2:53-57 V3:58-62 V4:63-67 V5:68-70 V6:71-73 V7:74-76 V8:77-79 V9:80-81 V10:82-83 V11:84-85 V12:86-87 V13:88-89 V14:90-91 V15:92-93 V16:94-95 V17:96-97 V18:98-99 V19:100-101 V20:102-103 V21:104-105 V22:106-107"),
        .font: parse(fontainebleauLike),
        .yds: parse("5.0:0-10 5:11-11 5.1:12-17 5.2:18-21 5.3:22-25 5.4:26-30 5.5:31-35 5.6:36-40 5.7:41-45 5.8:46-51 5.9:52-56 5.10a:57-61 5.10b:62-63 5.10c:64-65 5.10d:66-66 5.11a:67-68 5.11b:69-70 5.11c:71-72 5.11d:73-74 5.12a:75-75 5.12b:76-77 5.12c:78-79 5.12d:80-81 5.13a:82-83 5.13b:84-85 5.13c:86-87 5.13d:88-89 5.14a:90-91 5.14b:92-93 5.14c:94-95 5.14d:96-97 5.15a:98-99 5.15b:100-101 5.15c:102-103 5.15d:104-105 5.16a:106-107"),
        .french: parse(fontainebleauLike),
        .uiaa: parse("1:0-11 2:12-23 3:24-35 4:36-37 4+:38-41 5-:42-45 5:46-49 5+:50-53 6-:54-55 6:56-57 6+:58-61 7-:62-63 7:64-65 7+:66-67 7+/8-:68-69 8-:70-71 8:72-73 8+:74-75 8+/9-:76-77 9-:78-79 9:80-81 9+:82-83 10-:84-85 10:86-87 10+:88-89 10+/11-:90-91 11-:92-93 11:94-97 11/11+:98-99 11+:100-101 11+/12-:102-103 12-:104-105 12:106-107"),
        .ewbank: parse("1:0-4 2:5-9 3:10-10 4:11-11 5:12-14 6:15-17 7:18-21 8:22-23 9:24-25 10:26-30 11:31-32 12:33-35 13:36-40 14:41-43 15:44-45 16:46-51 17:52-56 18:57-61 19:62-63 20:64-66 21:67-68 22:69-70 23:71-73 24:74-75 25:76-77 26:78-79 27:80-81 28:82-83 29:84-85 30:86-87 31:88-89 32:90-91 33:92-93 34:94-95 35:96-97 36:98-99 37:100-101 38:102-103 39:104-105 40:106-107"),
    ]

    /// Fontainebleau (boulders) and French (routes) name their grades alike, two scores a grade.
    private static let fontainebleauLike = "1a:0-1 1a+:2-3 1b:4-5 1b+:6-7 1c:8-9 1c+:10-11 2a:12-13 2a+:14-15 2b:16-17 2b+:18-19 2c:20-21 2c+:22-23 3a:24-25 3a+:26-27 3b:28-29 3b+:30-31 3c:32-33 3c+:34-35 4a:36-37 4a+:38-39 4b:40-41 4b+:42-43 4c:44-45 4c+:46-47 5a:48-49 5a+:50-51 5b:52-53 5b+:54-55 5c:56-57 5c+:58-59 6a:60-61 6a+:62-63 6b:64-65 6b+:66-67 6c:68-69 6c+:70-71 7a:72-73 7a+:74-75 7b:76-77 7b+:78-79 7c:80-81 7c+:82-83 8a:84-85 8a+:86-87 8b:88-89 8b+:90-91 8c:92-93 8c+:94-95 9a:96-97 9a+:98-99 9b:100-101 9b+:102-103 9c:104-105 9c+:106-107"

    /// Each scale's grades by their lowercased name: the lookup every read of a grade makes.
    private static let scoresByName: [GradeScale: [String: (lowest: Int, highest: Int)]] = grades.mapValues { table in
        Dictionary(table.map { ($0.name.lowercased(), ($0.lowest, $0.highest)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The highest score of either axis.
    public static let maximumScore = 107

    private static func parse(_ text: String) -> [(name: String, lowest: Int, highest: Int)] {
        text.split(separator: " ").compactMap { entry in
            guard let colon = entry.lastIndex(of: ":") else { return nil }
            let bounds = entry[entry.index(after: colon)...].split(separator: "-")
            guard bounds.count == 2, let lowest = Int(bounds[0]), let highest = Int(bounds[1]) else { return nil }
            return (String(entry[..<colon]), lowest, highest)
        }
    }

    /// The grades of `scale`, easiest first.
    public static func names(in scale: GradeScale) -> [String] {
        (grades[scale] ?? []).map(\.name)
    }

    /// The score range of `grade` in `scale`, read leniently: case and spaces do not matter,
    /// `V3-4` and `V3/4` and `5.10a/b` span both grades, a YDS grade without its letter
    /// (`5.10`) spans a to d, and `5.10-`/`5.10+` take the lower or upper half; nil when
    /// `grade` is no grade of the scale.
    public static func range(of grade: String, in scale: GradeScale) -> GradeRange? {
        let text = withoutSpaces(grade)
        guard !text.isEmpty, text.count <= 20 else { return nil }
        if let exact = exactRange(text, scale) { return exact }
        if scale == .yds, let range = ydsWithoutLetter(text) { return range }
        // A slash or a dash between two grades: `V3/4`, `V3-4`, `6a/6a+`, `5.10a/b`.
        for separator in ["/", "-"] where text.contains(separator) {
            let parts = text.components(separatedBy: separator)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { continue }
            guard let first = exactRange(parts[0], scale) else { continue }
            let prefixed = completed(parts[1], after: parts[0])
            if let second = exactRange(prefixed, scale) ?? exactRange(parts[1], scale) { return first.union(second) }
        }
        return nil
    }

    /// `4` after `V3` is `V4`; `b` after `5.10a` is `5.10b`; `6a+` stays.
    private static func completed(_ tail: String, after head: String) -> String {
        if let first = tail.first, first.isNumber, head.uppercased().hasPrefix("V") { return "V" + tail }
        if tail.count == 1, let letter = tail.first, letter.isLetter, head.count > 1 { return String(head.dropLast()) + tail }
        return tail
    }

    private static func exactRange(_ text: String, _ scale: GradeScale) -> GradeRange? {
        guard let entry = scoresByName[scale]?[text.lowercased()] else { return nil }
        return GradeRange(axis: scale.axis, lowest: entry.lowest, highest: entry.highest)
    }

    /// `grade` without the blanks at its ends (spaces and tabs) and without the spaces inside
    /// it (`V 5` is `V5`): a grade as typed, ready to be looked up.
    private static func withoutSpaces(_ grade: String) -> String {
        let isBlank: (Unicode.Scalar) -> Bool = { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
        let scalars = grade.unicodeScalars
        guard scalars.contains(where: isBlank) else { return grade }
        let start = scalars.firstIndex { !isBlank($0) } ?? scalars.endIndex
        let end = scalars.lastIndex { !isBlank($0) }.map(scalars.index(after:)) ?? start
        guard start < end else { return "" }
        var trimmed = String.UnicodeScalarView()
        trimmed.append(contentsOf: scalars[start..<end].lazy.filter { $0 != " " })
        return String(trimmed)
    }

    /// `5.10`, `5.10-`, `5.10+` (Mountain Project's habit): the letters a–d, or their halves.
    private static func ydsWithoutLetter(_ text: String) -> GradeRange? {
        var base = text
        var half: Character?
        if let last = base.last, last == "-" || last == "+" { half = last; base.removeLast() }
        guard let number = Int(base.dropFirst(2)), base.hasPrefix("5."), number >= 10 else { return nil }
        let letters: [String] = switch half {
        case "-": ["a", "b"]
        case "+": ["c", "d"]
        default: ["a", "b", "c", "d"]
        }
        let ranges = letters.compactMap { exactRange(base + $0, .yds) }
        guard let first = ranges.first else { return nil }
        return ranges.dropFirst().reduce(first) { $0.union($1) }
    }

    /// The grade of `scale` whose range holds `score` (the easiest grade below it when none
    /// does, which only happens outside the table).
    public static func name(of score: Int, in scale: GradeScale) -> String {
        let table = grades[scale] ?? []
        if let entry = table.first(where: { $0.lowest <= score && score <= $0.highest }) { return entry.name }
        return score < 0 ? (table.first?.name ?? "?") : (table.last?.name ?? "?")
    }

    /// `range` in `scale`: one grade (`V5`) or the grades at its ends (`V4–V5`).
    public static func name(of range: GradeRange, in scale: GradeScale) -> String {
        let low = name(of: range.lowest, in: scale), high = name(of: range.highest, in: scale)
        return low == high ? low : "\(low)–\(high)"
    }

    /// `range` as a member reading `scale` sees it: a grade of a scale (`V5`, whose scores
    /// straddle `6c` and `6c+`) shows as the one grade its lowest score has (`6c`); a colour
    /// level or a slash grade shows as the grades at its ends (`V4–V5`).
    public static func display(_ range: GradeRange, from original: GradeScale?, in scale: GradeScale) -> String {
        if let original, let table = grades[original], table.contains(where: { $0.lowest == range.lowest && $0.highest == range.highest }) {
            return name(of: range.lowest, in: scale)
        }
        return name(of: range, in: scale)
    }

    /// The band of a score, after the source's thresholds (`GradeBands.ts`: boulders 50, 60 and
    /// 72, routes 54, 67.5 and 82.5 for intermediate, advanced and expert).
    public static func band(of score: Int, on axis: GradeAxis) -> GradeBand {
        let thresholds: [(GradeBand, Double)] = switch axis {
        case .boulder: [(.expert, 72), (.advanced, 60), (.intermediate, 50), (.beginner, 0)]
        case .route: [(.expert, 82.5), (.advanced, 67.5), (.intermediate, 54), (.beginner, 0)]
        }
        return thresholds.first { Double(score) >= $0.1 }?.0 ?? .beginner
    }
}

/// How hard a grade is, in words.
public enum GradeBand: String, Sendable, CaseIterable {
    case beginner, intermediate, advanced, expert
}
