/// A module's `module.manifest`: the one place its name, version and routes are written.
///
/// ```
/// # Geo's manifest
/// type GeoModule
/// name Geo
/// version 1.0.0
/// import Contracts
/// provides GeoRoute
/// uses AuthRoute
/// command list --json
/// command add --country --city
/// capability network
/// capability read /usr/share/dict
/// ```
///
/// One keyword a line; `import`, `provides`, `requires` and `uses` may repeat and take names
/// separated by spaces or commas. `command` names one of the module's commands and its options,
/// so that shell completion and the manual know them without opening the library.
/// `capability` declares what the module needs when it runs in a sandbox of its own, beyond
/// its data folder: `network`, `exec`, `read PATH` or `write PATH` (PATH absolute or `~/…`,
/// the rest of the line), `env NAME` (an environment variable it reads). Every problem is an error naming the file and line.
struct ManifestFile {
    var type = ""
    var name = ""
    var version = ""
    var imports: [String] = []
    var provides: [String] = []
    var requires: [String] = []
    var uses: [String] = []
    /// Each command the module contributes, with its options, in the manifest's order.
    var commands: [(name: String, options: [String])] = []
    /// Each capability declared, as its line reads after the keyword (`read /usr/share/dict`).
    var capabilities: [String] = []

    static func parse(_ text: String, path: String) throws(ToolError) -> ManifestFile {
        var manifest = ManifestFile()
        var seen: Set<String> = []
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingSpaces
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            func fail(_ message: String) -> ToolError {
                ToolError(message: "\(path):\(offset + 1): \(message)")
            }
            let keyword = String(line.prefix { $0 != " " && $0 != "\t" })
            let values = line.dropFirst(keyword.count).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
            switch keyword {
            case "type", "name", "version":
                guard !seen.contains(keyword) else { throw fail("'\(keyword)' is given twice") }
                guard values.count == 1 else { throw fail("'\(keyword)' takes one value") }
                seen.insert(keyword)
                let value = values[0]
                if keyword == "version" {
                    guard value.count <= 64, value.utf8.allSatisfy(isVersionByte) else {
                        throw fail("version '\(value)' may hold only letters, digits, '.', '-' and '+' (64 at most)")
                    }
                    manifest.version = value
                } else {
                    guard isIdentifier(value) else { throw fail("\(keyword) '\(value)' is not an identifier") }
                    if keyword == "type" { manifest.type = value } else { manifest.name = value }
                }
            case "import", "provides", "requires", "uses":
                for value in values where !isIdentifier(value) {
                    throw fail("'\(value)' is not an identifier")
                }
                switch keyword {
                case "import": manifest.imports += values
                case "provides": manifest.provides += values
                case "requires": manifest.requires += values
                default: manifest.uses += values
                }
            case "command":
                guard let name = values.first, isCommandWord(name) else {
                    throw fail("'command' takes a command's name (lowercase letters, digits and '-'), then its options")
                }
                guard !manifest.commands.contains(where: { $0.name == name }) else { throw fail("command '\(name)' is given twice") }
                let options = Array(values.dropFirst())
                if let bad = options.first(where: { !$0.hasPrefix("--") || !isCommandWord(String($0.dropFirst(2))) }) {
                    throw fail("'\(bad)' is not an option: options are '--' and lowercase letters, digits and '-'")
                }
                manifest.commands.append((name, options))
            case "capability":
                let capability = try Self.capability(String(line.dropFirst(keyword.count).trimmingSpaces), fail: fail)
                guard !manifest.capabilities.contains(capability) else { throw fail("capability '\(capability)' is given twice") }
                manifest.capabilities.append(capability)
            default:
                throw fail(
                    "unknown keyword '\(keyword)'; use type, name, version, import, provides, requires, uses, command or capability")
            }
        }
        for keyword in ["type", "name", "version"] where !seen.contains(keyword) {
            throw ToolError(message: "\(path): '\(keyword)' is missing")
        }
        return manifest
    }

    /// One capability, checked: a word, or `read`/`write` and a path.
    private static func capability(_ text: String, fail: (String) -> ToolError) throws(ToolError) -> String {
        let word = String(text.prefix { $0 != " " && $0 != "\t" })
        switch word {
        case "network", "exec":
            guard text == word else { throw fail("capability '\(word)' takes nothing after it") }
            return word
        case "env":
            let name = String(Substring(text.dropFirst(word.count)).trimmingSpaces)
            guard isEnvironmentName(name) else {
                throw fail("capability 'env' takes the name of an environment variable (letters, digits and '_')")
            }
            return word + " " + name
        case "read", "write":
            let path = String(Substring(text.dropFirst(word.count)).trimmingSpaces)
            guard path.hasPrefix("/") || path.hasPrefix("~/") else {
                throw fail("capability '\(word)' takes a path that starts with '/' or '~/'")
            }
            let parts = path.split(separator: "/")
            guard path.utf8.count <= 1024, !parts.contains(".."), !parts.contains("."),
                path.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
            else { throw fail("capability '\(word)': '\(path)' is not a plain path (no '.' or '..', no control characters)") }
            return word + " " + path
        default:
            throw fail("unknown capability '\(word)'; use network, exec, read PATH, write PATH or env NAME")
        }
    }

    /// `PIXABAY_API_KEY`, `https_proxy`: letters, digits and `_`, not a digit first.
    static func isEnvironmentName(_ value: String) -> Bool {
        guard value.count <= 128, let first = value.utf8.first, !isDigit(first) else { return false }
        return value.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isIdentifier(_ value: String) -> Bool {
        guard value.count <= 128, let first = value.utf8.first, isLetter(first) else { return false }
        return value.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// A command's word as a person types it: lowercase letters, digits and `-`, a letter first.
    private static func isCommandWord(_ value: String) -> Bool {
        guard value.count <= 64, let first = value.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
        return value.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isVersionByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+")].contains(byte)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" || first == "\r" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result = result.dropLast() }
        return result
    }
}
