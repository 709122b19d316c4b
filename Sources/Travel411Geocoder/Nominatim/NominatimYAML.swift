import Foundation
import Travel411Core

/// The part of YAML that Nominatim 5.3's settings files use (`settings/country_settings.yaml`,
/// `settings/country-names/*.yaml`, `settings/icu_tokenizer.yaml`'s scalars): mappings nested by indentation,
/// plain or quoted scalars, `#` comments, and the `!include` tag, kept as the scalar's tag. Sequences (`- x`)
/// and flow collections are skipped with their block, as nothing travel411 reads is one.
indirect enum NominatimYAML: Equatable, Sendable {
    case scalar(String, tag: String?)
    case mapping([Entry])

    struct Entry: Equatable, Sendable {
        var key: String
        var value: NominatimYAML
    }

    struct SyntaxError: Travel411Error {
        var file: String
        var line: Int
        var reason: String
        var description: String { "\(file):\(line): \(reason)" }
        var exitStatus: ExitStatus { .dataError }
    }

    /// The value under `key` of a mapping; nil for a scalar or a missing key.
    subscript(key: String) -> NominatimYAML? {
        guard case .mapping(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// A scalar's text; nil for a mapping.
    var text: String? {
        guard case .scalar(let text, _) = self else { return nil }
        return text
    }

    var entries: [(key: String, value: NominatimYAML)] {
        guard case .mapping(let entries) = self else { return [] }
        return entries.map { ($0.key, $0.value) }
    }

    static func parse(contentsOf url: URL) throws -> NominatimYAML {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw SyntaxError(file: url.path, line: 0, reason: "cannot read the file as UTF-8 (\(error.localizedDescription))")
        }
        return try parse(text, file: url.path)
    }

    static func parse(_ text: String, file: String) throws -> NominatimYAML {
        var lines: [(number: Int, indent: Int, text: Substring)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = withoutComment(raw)
            guard !content.allSatisfy(\.isWhitespace) else { continue }
            let indent = content.prefix { $0 == " " }.count
            lines.append((index + 1, indent, content.dropFirst(indent)))
        }
        var position = 0
        let root = try block(&position, lines, indent: 0, file: file)
        if position < lines.count {
            throw SyntaxError(file: file, line: lines[position].number, reason: "indentation does not match any mapping above")
        }
        return root
    }

    private static func block(
        _ position: inout Int, _ lines: [(number: Int, indent: Int, text: Substring)], indent: Int, file: String
    ) throws -> NominatimYAML {
        var entries: [Entry] = []
        while position < lines.count, lines[position].indent == indent {
            let line = lines[position]
            position += 1
            if line.text.hasPrefix("- ") || line.text == "-" {
                // A sequence item: skipped with whatever is nested under it.
                while position < lines.count, lines[position].indent > indent { position += 1 }
                continue
            }
            guard let colon = keyEnd(line.text) else {
                throw SyntaxError(file: file, line: line.number, reason: "expected `key: value`, found `\(line.text)`")
            }
            let key = unquoted(String(trimmed(line.text[..<colon])))
            let rest = String(trimmed(line.text[line.text.index(after: colon)...]))
            if rest.isEmpty {
                if position < lines.count, lines[position].indent > indent {
                    entries.append(Entry(key: key, value: try block(&position, lines, indent: lines[position].indent, file: file)))
                } else {
                    entries.append(Entry(key: key, value: .scalar("", tag: nil)))
                }
            } else {
                entries.append(Entry(key: key, value: scalar(rest)))
                while position < lines.count, lines[position].indent > indent,
                    rest.hasPrefix("[") || rest.hasPrefix("{")
                        || rest == "|" || rest == ">"
                {
                    position += 1
                }
            }
        }
        return .mapping(entries)
    }

    /// `text` without the blanks around it: tabs and space separators, as Foundation's `CharacterSet.whitespaces`.
    /// Not `trimmingCharacters`: every process that answers a point of an extract reads this file, and that call was
    /// a third of reading it.
    private static func trimmed(_ text: Substring) -> Substring {
        func isBlank(_ character: Character) -> Bool {
            guard character != " " else { return true }
            let scalars = character.unicodeScalars
            guard scalars.count == 1, let scalar = scalars.first else { return false }
            return scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// The colon ending a mapping key: the first `:` followed by a space or the line's end, outside quotes.
    private static func keyEnd(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == ":" {
                let next = text.index(after: index)
                if next == text.endIndex || text[next] == " " { return index }
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// A line without its comment: `#` at its start or after a space, outside quotes.
    private static func withoutComment(_ line: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                // A quote opens a quoted scalar only at its start (`Arc'hantina` is plain).
                if previous == " " || previous == ":" { quote = character }
            } else if character == "#", previous == " " || previous == "\t" {
                return line[..<index]
            }
            previous = character
        }
        return line
    }

    private static func scalar(_ text: String) -> NominatimYAML {
        if text.hasPrefix("!") {
            let parts = text.split(separator: " ", maxSplits: 1)
            return .scalar(parts.count > 1 ? unquoted(String(parts[1])) : "", tag: String(parts[0]))
        }
        return .scalar(unquoted(text), tag: nil)
    }

    /// A quoted scalar's text: `"no"` → `no`; `'it''s'` → `it's`. Double quotes keep backslashes as written,
    /// as none of Nominatim's files escapes anything in them.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        let inner = String(text.dropFirst().dropLast())
        return first == "'" ? inner.replacingOccurrences(of: "''", with: "'") : inner
    }
}
