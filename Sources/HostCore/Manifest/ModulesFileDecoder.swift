import Foundation
import ModuleKit

/// Reads `modules.json` strictly: an unknown key, a wrong type, a duplicate or malformed name,
/// or an unknown environment is a problem naming the entry, with the nearest valid key for a
/// typo. Every problem is collected, so `modhost check` can list them all at once.
public struct ModulesFileDecoder {
    static let topLevelKeys = ["environment", "searchPaths", "modules"]
    static let moduleKeys = ["name", "enabled", "library", "config"]

    /// The folder `searchPaths` defaults to: the one holding the `modhost` executable.
    let defaultSearchPath: String

    public init(defaultSearchPath: String) {
        self.defaultSearchPath = defaultSearchPath
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    public func decode(contentsOf path: String) throws(ModulesFileError) -> HostConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw ModulesFileError(
                path: path,
                problems: ["\(reason); pass another file with --config PATH or MODHOST_CONFIG"])
        }
        return try decode(data, path: path)
    }

    /// Checks `data`, read from `path` (relative paths inside it are relative to its folder).
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    public func decode(_ data: Data, path: String) throws(ModulesFileError) -> HostConfiguration {
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
            problems.append("unknown top-level key '\(key)'\(didYouMean(key, among: Self.topLevelKeys))")
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
                "unknown environment '\(name)'\(didYouMean(name, among: names)); use one of \(names.joined(separator: ", "))")
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
                entryProblems.append("unknown key '\(key)'\(didYouMean(key, among: moduleKeys))")
            }
            var name = ""
            switch fields["name"] {
            case nil: entryProblems.append("'name' is missing")
            case .string(let value)?:
                name = value
                if !isValidName(value) {
                    entryProblems.append(
                        "name '\(value)' must start with a letter and hold only letters, digits and '_' (it names lib\(value).so)")
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
                entries.append(ModuleEntry(name: name, enabled: enabled, library: library, config: config, index: index))
            }
        }
        return entries
    }

    /// `modules[2] ('Geo')`, or `modules[2]` when the name is unknown.
    private static func label(index: Int, fields: [String: JSONValue]) -> String {
        if case .string(let name)? = fields["name"] { return "modules[\(index)] ('\(name)')" }
        return "modules[\(index)]"
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
