/// Parses the `.strings` format (seed 000's `Localizable.strings`):
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
        var scanner = Scanner(Array(text.unicodeScalars))
        var table: [String: String] = [:]
        while true {
            try scanner.skipTrivia()
            guard !scanner.atEnd else { return table }
            let keyLine = scanner.line
            let key = try scanner.quoted()
            try scanner.skipTrivia()
            try scanner.expect("=")
            try scanner.skipTrivia()
            let value = try scanner.quoted()
            try scanner.skipTrivia()
            try scanner.expect(";")
            guard table[key] == nil else { throw SyntaxError(line: keyLine, message: "duplicate key \"\(key)\"") }
            table[key] = value
        }
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        mutating func advance() {
            if current == "\n" { line += 1 }
            index += 1
        }

        mutating func skipTrivia() throws(SyntaxError) {
            while let scalar = current {
                if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{FEFF}" {
                    advance()
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    while let next = current, next != "\n" { advance() }
                } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    let start = line
                    advance()
                    advance()
                    while !(current == "*" && index + 1 < scalars.count && scalars[index + 1] == "/") {
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

        mutating func expect(_ scalar: Unicode.Scalar) throws(SyntaxError) {
            guard current == scalar else {
                throw SyntaxError(line: line, message: "expected '\(scalar)'" + (current.map { ", found '\($0)'" } ?? " at end of file"))
            }
            advance()
        }

        mutating func quoted() throws(SyntaxError) -> String {
            try expect("\"")
            var result = String.UnicodeScalarView()
            while let scalar = current {
                advance()
                switch scalar {
                case "\"":
                    return String(result)
                case "\\":
                    guard let escaped = current else { break }
                    advance()
                    switch escaped {
                    case "n": result.append("\n")
                    case "t": result.append("\t")
                    case "\"", "\\", "'": result.append(escaped)
                    case "u", "U":
                        var value: UInt32 = 0
                        for _ in 0..<4 {
                            guard let digit = current, let number = UInt32(String(digit), radix: 16) else {
                                throw SyntaxError(line: line, message: "expected four hex digits after \\u")
                            }
                            value = value * 16 + number
                            advance()
                        }
                        guard let decoded = Unicode.Scalar(value) else { throw SyntaxError(line: line, message: "invalid \\u escape") }
                        result.append(decoded)
                    default:
                        throw SyntaxError(line: line, message: "unknown escape '\\\(escaped)'")
                    }
                default:
                    result.append(scalar)
                }
            }
            throw SyntaxError(line: line, message: "unterminated string")
        }
    }
}
