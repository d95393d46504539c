import Glibc

/// Parses the `.strings` format (`Localizable.strings`):
///
/// ```
/// // comment
/// /* comment */
/// "button.login" = "Log In";
/// "form.error.missing" = "%@ is required.";
/// ```
///
/// Escapes: `\"`, `\\`, `\n`, `\t`, `\u0041`. A syntax error names the line.
enum StringsFile {
    struct SyntaxError: Error, Equatable, CustomStringConvertible {
        let line: Int
        let message: String
        var description: String { "line \(line): \(message)" }
    }

    static func parse(_ text: String) throws(SyntaxError) -> [String: String] {
        try parse(Array(text.utf8))
    }

    /// The bytes of the file at `path`, read whole with one `read(2)` per 64 KiB (nil when it
    /// cannot be opened, e.g. a locale the module does not ship). Only regular files: a FIFO
    /// planted in a strings folder must not block the host.
    static func read(_ path: String) throws(TrustError) -> [UInt8]? {
        // Checked as a library is (owner, mode, folders, symlinks): what it says is shown to
        // the person, and a planted table could make a screen say anything.
        do {
            return try TrustedFile(path: path, maximumSize: maximumSize).contents()
        } catch .missing {
            return nil
        }
    }

    /// The largest strings file read (a module's tables are a few KiB).
    static let maximumSize = 4 << 20

    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> [String: String] {
        let parsed: Result<[String: String], SyntaxError> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(buffer)
            // About one entry per 40 bytes: one allocation for the table instead of a few growths.
            var table = [String: String](minimumCapacity: buffer.count / 40)
            do throws(SyntaxError) {
                while true {
                    try scanner.skipTrivia()
                    guard !scanner.atEnd else { return .success(table) }
                    let keyLine = scanner.line
                    let key = try scanner.quoted()
                    try scanner.skipTrivia()
                    try scanner.expect("=")
                    try scanner.skipTrivia()
                    let value = try scanner.quoted()
                    try scanner.skipTrivia()
                    try scanner.expect(";")
                    guard table.updateValue(value, forKey: key) == nil else {
                        throw SyntaxError(line: keyLine, message: "duplicate key \"\(key)\"")
                    }
                }
            } catch {
                return .failure(error)
            }
        }
        return try parsed.get()
    }

    /// Works on UTF-8 bytes: every character of the syntax is ASCII, so a run of plain text
    /// between them is copied whole (every start reads these files; character by character
    /// was most of a start's cost).
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var line = 1

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            // A byte-order mark is allowed at the start.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { atEnd ? nil : bytes[index] }

        mutating func advance() {
            if current == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }

        private func isAt(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> Bool {
            index + 1 < bytes.count && bytes[index] == UInt8(ascii: first) && bytes[index + 1] == UInt8(ascii: second)
        }

        mutating func skipTrivia() throws(SyntaxError) {
            while let byte = current {
                if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    advance()
                } else if isAt("/", "/") {
                    while let next = current, next != UInt8(ascii: "\n") { advance() }
                } else if isAt("/", "*") {
                    let start = line
                    advance()
                    advance()
                    while !isAt("*", "/") {
                        guard !atEnd else { throw SyntaxError(line: start, message: "unterminated comment") }
                        advance()
                    }
                    advance()
                    advance()
                } else {
                    return
                }
            }
        }

        /// The character at the current position, for messages.
        private var currentCharacter: String? {
            guard !atEnd else { return nil }
            var end = index + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        mutating func expect(_ scalar: Unicode.Scalar) throws(SyntaxError) {
            guard current == UInt8(ascii: scalar) else {
                throw SyntaxError(
                    line: line, message: "expected '\(scalar)'" + (currentCharacter.map { ", found '\($0)'" } ?? " at end of file"))
            }
            advance()
        }

        mutating func quoted() throws(SyntaxError) -> String {
            try expect("\"")
            // Most strings have no escape: made straight from the file's bytes.
            var result: [UInt8] = []
            var escaped = false
            while !atEnd {
                // A plain run: up to the next quote or backslash.
                let start = index
                var highBits: UInt8 = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    highBits |= byte
                    index += 1
                }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard let byte = current else { break }
                advance()
                if byte == UInt8(ascii: "\"") {
                    // ASCII needs no validation (most strings); the rest is validated once.
                    if !escaped && highBits < 0x80 { return String(decoding: run, as: UTF8.self) }
                    if escaped { result.append(contentsOf: run) }
                    let text =
                        escaped
                        ? result.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) } : String(validating: run, as: UTF8.self)
                    guard let text else { throw SyntaxError(line: line, message: "not valid UTF-8") }
                    return text
                }
                if !escaped {
                    escaped = true
                    result.reserveCapacity(run.count + 16)
                }
                result.append(contentsOf: run)
                // A backslash: one escape.
                guard let escape = current else { break }
                advance()
                switch escape {
                case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "'"): result.append(escape)
                case UInt8(ascii: "u"), UInt8(ascii: "U"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard let digit = current, let number = hexDigitValue(digit) else {
                            throw SyntaxError(line: line, message: "expected four hex digits after \\u")
                        }
                        value = value * 16 + number
                        advance()
                    }
                    guard let decoded = Unicode.Scalar(value) else { throw SyntaxError(line: line, message: "invalid \\u escape") }
                    result.append(contentsOf: Array(String(decoded).utf8))
                default:
                    let shown = String(decoding: [escape], as: UTF8.self)
                    throw SyntaxError(line: line, message: "unknown escape '\\\(shown)'")
                }
            }
            throw SyntaxError(line: line, message: "unterminated string")
        }

    }
}
