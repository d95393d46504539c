import Foundation
import ModuleKit

/// Reads `modules.json` strictly: an unknown key, a wrong type, a duplicate or malformed name,
/// or an unknown environment is a problem naming the entry, with the nearest valid key for a
/// typo. Every problem is collected, so `modhost check` can list them all at once.
public struct ModulesFileDecoder {
    static let topLevelKeys = ["environment", "searchPaths", "modules"]
    static let moduleKeys = ["name", "enabled", "library", "config", "sha256", "startTimeout"]
    /// The largest `modules.json` read; a larger one is refused before parsing.
    static let maximumSize = 1 << 20
    /// The longest string value accepted (a name, a path), in bytes.
    static let maximumStringLength = 16_384

    /// The folder `searchPaths` defaults to: the one holding the `modhost` executable.
    let defaultSearchPath: String

    public init(defaultSearchPath: String) {
        self.defaultSearchPath = defaultSearchPath
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    ///
    /// The file is checked before it is read (see ``TrustedFile``): it decides which code runs.
    public func decode(contentsOf path: String) throws(ModulesFileError) -> HostConfiguration {
        let bytes: [UInt8]
        do {
            let file = try TrustedFile(path: path, maximumSize: Self.maximumSize)
            bytes = try file.contents()
        } catch {
            if error == .missing {
                throw ModulesFileError(path: path, problems: ["does not exist; pass another file with --config PATH or MODHOST_CONFIG"])
            }
            throw ModulesFileError(path: path, problems: [error.cause(for: path)])
        }
        return try decode(Data(bytes), path: path)
    }

    /// Checks `data`, read from `path` (relative paths inside it are relative to its folder).
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    public func decode(_ data: Data, path: String) throws(ModulesFileError) -> HostConfiguration {
        guard data.count <= Self.maximumSize else {
            throw ModulesFileError(path: path, problems: ["is \(data.count) bytes, more than the \(Self.maximumSize) allowed"])
        }
        if let long = Self.longString(in: data) {
            throw ModulesFileError(
                path: path,
                problems: ["holds a string longer than \(Self.maximumStringLength) bytes, starting '\(Escaped(long))'; shorten it"])
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(Array(data))
        } catch {
            throw ModulesFileError(path: path, problems: ["is not valid JSON: \(error)"])
        }
        var problems: [String] = []
        guard case .object(let top) = root else {
            throw ModulesFileError(path: path, problems: ["must be a JSON object with 'modules', found \(root.kindName)"])
        }
        for key in top.keys.sorted() where !Self.topLevelKeys.contains(key) {
            problems.append("unknown top-level key '\(Escaped(key))'\(didYouMean(key, among: Self.topLevelKeys))")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let environment = Self.environment(top["environment"], problems: &problems)
        let searchPaths = searchPaths(top["searchPaths"], folder: folder, problems: &problems)
        var modules: [ModuleEntry] = []
        switch top["modules"] {
        case nil:
            problems.append("'modules' is missing: add \"modules\": [] with one object per module")
        case .array(let items)?:
            modules = Self.modules(items, problems: &problems)
        case let other?:
            problems.append("'modules' must be an array, found \(other.kindName)")
        }
        guard problems.isEmpty else { throw ModulesFileError(path: path, problems: problems) }
        return HostConfiguration(path: path, environment: environment, searchPaths: searchPaths, modules: modules)
    }

    private static func environment(_ value: JSONValue?, problems: inout [String]) -> HostEnvironment {
        let names = HostEnvironment.allCases.map(\.rawValue)
        switch value {
        case nil:
            return .development
        case .string(let name)?:
            if let environment = HostEnvironment(rawValue: name) { return environment }
            problems.append(
                "unknown environment '\(Escaped(name))'\(didYouMean(name, among: names)); use one of \(names.joined(separator: ", "))")
        case let other?:
            problems.append("'environment' must be a string, found \(other.kindName)")
        }
        return .development
    }

    private func searchPaths(_ value: JSONValue?, folder: String, problems: inout [String]) -> [String] {
        switch value {
        case nil:
            return [defaultSearchPath]
        case .array(let items)?:
            var paths: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let path) = item else {
                    problems.append("searchPaths[\(index)] must be a string, found \(item.kindName)")
                    continue
                }
                guard !path.isEmpty else {
                    problems.append("searchPaths[\(index)] is empty; remove it or name a folder")
                    continue
                }
                paths.append(Self.absolute(path, relativeTo: folder))
            }
            return paths
        case let other?:
            problems.append("'searchPaths' must be an array of strings, found \(other.kindName)")
            return []
        }
    }

    private static func modules(_ items: [JSONValue], problems: inout [String]) -> [ModuleEntry] {
        var entries: [ModuleEntry] = []
        var firstIndexByName: [String: (index: Int, name: String)] = [:]
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else {
                problems.append("modules[\(index)] must be an object, found \(item.kindName)")
                continue
            }
            let label = label(index: index, fields: fields)
            var entryProblems: [String] = []
            for key in fields.keys.sorted() where !moduleKeys.contains(key) {
                entryProblems.append("unknown key '\(Escaped(key))'\(didYouMean(key, among: moduleKeys))")
            }
            var name = ""
            switch fields["name"] {
            case nil: entryProblems.append("'name' is missing")
            case .string(let value)?:
                name = value
                if !isValidName(value) {
                    entryProblems.append(
                        "name '\(Escaped(value))' must start with a letter and hold only letters, digits and '_' (it names lib<name>.so)")
                }
            case let other?: entryProblems.append("'name' must be a string, found \(other.kindName)")
            }
            var enabled = false
            switch fields["enabled"] {
            case nil: entryProblems.append("'enabled' is missing: add \"enabled\": true or false")
            case .bool(let value)?: enabled = value
            case let other?: entryProblems.append("'enabled' must be true or false, found \(other.kindName)")
            }
            var library: String?
            switch fields["library"] {
            case nil: break
            case .string(let value)? where !value.isEmpty: library = value
            case .string?: entryProblems.append("'library' is empty; remove it or give the library's path")
            case let other?: entryProblems.append("'library' must be a string (a path), found \(other.kindName)")
            }
            var sha256: String?
            switch fields["sha256"] {
            case nil: break
            case .string(let value)? where value.count == 64 && value.allSatisfy(\.isHexDigit): sha256 = value.lowercased()
            case .string(let value)?: entryProblems.append("'sha256' must be 64 hex digits, found '\(Escaped(value))'")
            case let other?: entryProblems.append("'sha256' must be a string of 64 hex digits, found \(other.kindName)")
            }
            var startTimeout: Duration?
            switch fields["startTimeout"] {
            case nil: break
            case .number(let value)? where value > 0 && value <= 3_600: startTimeout = .milliseconds(Int64((value * 1_000).rounded(.up)))
            case .number(let value)?: entryProblems.append("'startTimeout' must be a number of seconds from 0 to 3600, found \(value)")
            case let other?: entryProblems.append("'startTimeout' must be a number of seconds, found \(other.kindName)")
            }
            var config: Data?
            switch fields["config"] {
            case nil: break
            case .object(let value)?: config = try? JSONEncoder().encode(JSONValue.object(value))
            case let other?: entryProblems.append("'config' must be an object, found \(other.kindName)")
            }
            if !name.isEmpty {
                if let first = firstIndexByName[name.lowercased()] {
                    entryProblems.append("duplicate name: modules[\(first.index)] is already named '\(first.name)'")
                } else {
                    firstIndexByName[name.lowercased()] = (index, name)
                }
            }
            problems += entryProblems.map { "\(label): \($0)" }
            if entryProblems.isEmpty {
                entries.append(
                    ModuleEntry(
                        name: name, enabled: enabled, library: library, config: config, sha256: sha256, startTimeout: startTimeout,
                        index: index))
            }
        }
        return entries
    }

    /// `modules[2] ('Geo')`, or `modules[2]` when the name is unknown.
    private static func label(index: Int, fields: [String: JSONValue]) -> String {
        if case .string(let name)? = fields["name"] { return "modules[\(index)] ('\(Escaped(name))')" }
        return "modules[\(index)]"
    }

    /// The start of the first string longer than the limit, found before parsing.
    private static func longString(in data: Data) -> String? {
        var start: Int?
        var escaped = false
        for (index, byte) in data.enumerated() {
            if let open = start {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    start = nil
                } else if index - open > maximumStringLength {
                    return String(decoding: data[open..<index], as: UTF8.self)
                }
            } else if byte == UInt8(ascii: "\"") {
                start = index + 1
            }
        }
        return nil
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }

    static func absolute(_ path: String, relativeTo folder: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: folder).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
