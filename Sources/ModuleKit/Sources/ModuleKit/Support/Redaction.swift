import Dispatch
import FoundationEssentials
import Synchronization

/// The one path by which anything that may hold a secret is made fit to print: every log
/// line (at every level), every error the host prints, and what modules show of URLs,
/// headers and servers' answers.
///
/// It removes secrets a module registered (an API key), credentials in URLs
/// (`https://user:pass@host/` → `https://***@host/`), the values of query items and JSON
/// fields with a secret's name (`key=…`, `"password": "…"` → `key=***`), and `Authorization`
/// headers and bearer tokens. ``excerpt(_:limit:)`` also cuts a server's text to a few words
/// on one line.
///
/// ```swift
/// Redaction.register(secret: configuration.apiKey)
/// context.logger.trace("GET \(url)")         // the logger redacts by itself
/// let shown = Redaction.excerpt(serverBody)  // for an error message
/// ```
public enum Redaction {
    /// Names whose values are secrets, compared without case.
    public static let secretNames: Set<String> = [
        "key", "apikey", "api_key", "api-key", "token", "access_token", "refresh_token", "id_token", "password", "passwd",
        "pass", "secret", "client_secret", "signature", "sig", "auth",
    ]

    private static let secrets = Mutex<[String]>([])

    /// Registers a value that must never be printed (four characters at least; shorter values
    /// would blank out ordinary words).
    public static func register(secret: String) {
        guard secret.count >= 4 else { return }
        secrets.withLock { if !$0.contains(secret) { $0.append(secret) } }
    }

    /// `text` with every secret it holds replaced by `***`.
    public static func redact(_ text: String) -> String {
        redact(text, jsonFields: true)
    }

    /// ``redact(_:)``, where `jsonFields: false` leaves `"name": "value"` pairs alone: what a
    /// screen prints may be a JSON document whose schema has a field such as `"key"` (a
    /// setting's name). Registered secrets, URL credentials, `name=value` and authorization
    /// are still removed.
    static func redact(_ text: String, jsonFields: Bool) -> String {
        var result = text
        for secret in secrets.withLock({ $0 }) where result.contains(secret) {
            result = result.split(separator: secret, omittingEmptySubsequences: false).joined(separator: "***")
        }
        var bytes = Array(result.utf8)
        bytes = redactURLCredentials(bytes)
        bytes = redactNamedValues(bytes, jsonFields: jsonFields)
        bytes = redactAuthorization(bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A server's text as a short excerpt on one line: redacted, control characters shown as
    /// spaces, cut at `limit` characters.
    public static func excerpt(_ text: String, limit: Int = 200) -> String {
        var line = ""
        var lastWasSpace = false
        for scalar in redact(text).unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            if isSpace {
                if !lastWasSpace && !line.isEmpty { line.append(" ") }
            } else {
                line.unicodeScalars.append(scalar)
            }
            lastWasSpace = isSpace
        }
        line = String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }

    // MARK: - Rules

    private static func isBoundary(_ byte: UInt8) -> Bool {
        [
            UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""), UInt8(ascii: "'"),
            UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "("), UInt8(ascii: ")"),
        ].contains(byte)
    }

    /// `scheme://user:pass@host` → `scheme://***@host`.
    private static func redactURLCredentials(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        let marker = Array("://".utf8)
        while index < bytes.count {
            guard index + 3 <= bytes.count, Array(bytes[index..<index + 3]) == marker else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output += marker
            index += 3
            var end = index
            while end < bytes.count, !isBoundary(bytes[end]),
                ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end])
            {
                end += 1
            }
            if let at = bytes[index..<end].lastIndex(of: UInt8(ascii: "@")) {
                output += Array("***".utf8)
                index = at
            }
        }
        return output
    }

    /// `name=value` or `"name": "value"` with a secret's name → the value as `***`.
    private static func redactNamedValues(_ bytes: [UInt8], jsonFields: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let isSeparator = byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":")
            guard isSeparator else {
                output.append(byte)
                index += 1
                continue
            }
            // The name just before: `name=` anywhere, `"name":` only as JSON (prose such as
            // "the token: type it" is left alone).
            var nameEnd = output.count
            let isQuoted = nameEnd > 0 && output[nameEnd - 1] == UInt8(ascii: "\"")
            if isQuoted { nameEnd -= 1 }
            var nameStart = nameEnd
            while nameStart > 0, isNameByte(output[nameStart - 1]) { nameStart -= 1 }
            let name = String(decoding: output[nameStart..<nameEnd], as: UTF8.self).lowercased()
            output.append(byte)
            index += 1
            guard secretNames.contains(name), byte == UInt8(ascii: "=") || (isQuoted && jsonFields) else { continue }
            // A JSON value: skip the spaces and the opening quote, then the value to its end.
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") {
                output.append(bytes[index])
                index += 1
            }
            let quoted = index < bytes.count && bytes[index] == UInt8(ascii: "\"")
            if quoted {
                output.append(bytes[index])
                index += 1
            }
            let start = index
            while index < bytes.count {
                let next = bytes[index]
                if quoted
                    ? next == UInt8(ascii: "\"")
                    : (isBoundary(next) || [UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: ","), UInt8(ascii: ";")].contains(next))
                {
                    break
                }
                index += 1
            }
            if index > start { output += Array("***".utf8) }
        }
        return output
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// `Authorization: …` to the end of its line, and `Bearer …`, → `***`.
    private static func redactAuthorization(_ bytes: [UInt8]) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        for marker in ["authorization:", "bearer "] {
            var searchStart = text.startIndex
            while let range = Self.range(ofLowercase: marker, in: text, from: searchStart) {
                var end = range.upperBound
                while end < text.endIndex, text[end] == " " { end = text.index(after: end) }
                var valueEnd = end
                while valueEnd < text.endIndex, !"\n\r\"".contains(text[valueEnd]), marker == "authorization:" || text[valueEnd] != " " {
                    valueEnd = text.index(after: valueEnd)
                }
                if valueEnd > end, text[end..<valueEnd] != "***" {
                    text.replaceSubrange(end..<valueEnd, with: "***")
                }
                searchStart = text.index(end, offsetBy: min(3, text.distance(from: end, to: text.endIndex)))
            }
        }
        return Array(text.utf8)
    }

    /// Where `marker` (lowercase ASCII) is first written at or after `start`, in any case.
    private static func range(ofLowercase marker: String, in text: String, from start: String.Index) -> Range<String.Index>? {
        let wanted = Array(marker.utf8)
        let bytes = text.utf8
        var index = start
        while index < bytes.endIndex {
            var candidate = index
            var matched = 0
            while matched < wanted.count, candidate < bytes.endIndex, Self.lowercased(bytes[candidate]) == wanted[matched] {
                matched += 1
                candidate = bytes.index(after: candidate)
            }
            if matched == wanted.count { return index..<candidate }
            index = bytes.index(after: index)
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
