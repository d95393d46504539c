import FoundationEssentials
import Glibc
@_spi(Host) import ModuleKit

/// Reads `modules.json` strictly: an unknown key, a wrong type, a duplicate or malformed name,
/// or an unknown environment is a problem naming the entry, with the nearest valid key for a
/// typo. Every problem is collected, so `modhost check` can list them all at once.
public struct ModulesFileDecoder {
    static let topLevelKeys = ["environment", "searchPaths", "modules"]
    static let moduleKeys = ["name", "enabled", "library", "config", "sha256", "startTimeout", "isolation", "deny", "sandbox", "limits"]
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
        try read(contentsOf: path).configuration()
    }

    /// Reads and checks the file at `path`, keeping what can still be checked when it has
    /// problems: what `modhost check` needs to tell every problem at once.
    public func read(contentsOf path: String) -> ModulesFileReading {
        let bytes: [UInt8]
        do {
            let file = try TrustedFile(path: path, maximumSize: Self.maximumSize)
            bytes = try file.contents()
        } catch {
            if error == .missing {
                return ModulesFileReading(
                    path: path,
                    problems: [HostText("config.missing", "does not exist; pass another file with --config PATH or MODHOST_CONFIG")])
            }
            return ModulesFileReading(path: path, problems: [HostText.refusal(error, of: path)])
        }
        return read(bytes: bytes, path: path)
    }

    /// Checks `data`, read from `path` (relative paths inside it are relative to its folder).
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    public func decode(_ data: Data, path: String) throws(ModulesFileError) -> HostConfiguration {
        try read(bytes: [UInt8](data), path: path).configuration()
    }

    /// Checks `data`, as bytes: iterating a `Data` costs a start a scan of every loaded
    /// conformance, to learn that it is a Sequence.
    func read(bytes data: [UInt8], path: String) -> ModulesFileReading {
        guard data.count <= Self.maximumSize else {
            return ModulesFileReading(
                path: path,
                problems: [
                    HostText(
                        "config.too.large", "is %@ bytes, more than the %@ allowed",
                        [.plain("\(data.count)"), .plain("\(Self.maximumSize)")])
                ])
        }
        if let long = Self.longString(in: data) {
            return ModulesFileReading(
                path: path,
                problems: [
                    HostText(
                        "config.long.string", "holds a string longer than %@ bytes, starting '%@'; shorten it",
                        [.plain("\(Self.maximumStringLength)"), .plain("\(Escaped(long))")])
                ])
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            return ModulesFileReading(path: path, problems: [HostText("config.not.json", "is not valid JSON: %@", [.plain("\(error)")])])
        }
        var problems: [HostText] = []
        guard case .object(let top) = root else {
            return ModulesFileReading(
                path: path, problems: [HostText("config.not.object", "must be a JSON object with 'modules', found %@", [.text(root.kind)])])
        }
        for key in top.keys.sorted() where !Self.topLevelKeys.contains(key) {
            problems.append(
                HostText(
                    "config.unknown.top", "unknown top-level key '%@'%@",
                    [.plain("\(Escaped(key))"), .text(Self.suggest(key, Self.topLevelKeys))]))
        }
        let folder = FilePaths.folder(of: FilePaths.absolute(path, relativeTo: FilePaths.currentFolder))
        let environment = Self.environment(top["environment"], problems: &problems)
        let searchPaths = searchPaths(top["searchPaths"], folder: folder, problems: &problems)
        let entries: Entries
        switch top["modules"] {
        case nil:
            problems.append(HostText("config.modules.missing", "'modules' is missing: add \"modules\": [] with one object per module"))
            return ModulesFileReading(path: path, problems: problems)
        case .array(let items)?:
            entries = Self.modules(items)
        case let other?:
            problems.append(HostText("config.modules.type", "'modules' must be an array, found %@", [.text(other.found)]))
            return ModulesFileReading(path: path, problems: problems)
        }
        return ModulesFileReading(
            path: path, problems: problems.map { FileProblem($0) } + entries.problems,
            checkable: HostConfiguration(path: path, environment: environment, searchPaths: searchPaths, modules: entries.checkable),
            unloadable: entries.unloadable)
    }

    /// The entries of `modules`: every sound one, and those `check` can still check.
    struct Entries {
        /// The sound entries, and each flawed one with a sound, unique name (its flawed
        /// fields left out, and enabled unless it says otherwise).
        var checkable: [ModuleEntry] = []
        /// The flawed ones whose library must not be loaded: their `library` or `sha256` is
        /// wrong, so what would run is not what the file names.
        var unloadable: [String] = []
        /// Each entry's problems, in file order.
        var problems: [FileProblem] = []
    }

    private static func environment(_ value: JSONValue?, problems: inout [HostText]) -> HostEnvironment {
        let names = HostEnvironment.allCases.map(\.rawValue)
        switch value {
        case nil:
            return .development
        case .string(let name)?:
            if let environment = HostEnvironment(rawValue: name) { return environment }
            problems.append(
                HostText(
                    "config.environment.unknown", "unknown environment '%@'; use one of %@%@",
                    [.plain("\(Escaped(name))"), .plain(names.joined(separator: ", ")), .text(suggest(name, names))]))
        case let other?:
            problems.append(HostText("config.environment.type", "'environment' must be a string, found %@", [.text(other.found)]))
        }
        return .development
    }

    private func searchPaths(_ value: JSONValue?, folder: String, problems: inout [HostText]) -> [String] {
        switch value {
        case nil:
            return [defaultSearchPath]
        case .array(let items)?:
            var paths: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let path) = item else {
                    problems.append(
                        HostText(
                            "config.search.item", "searchPaths[%@] must be a string, found %@", [.plain("\(index)"), .text(item.found)]))
                    continue
                }
                guard !path.isEmpty else {
                    problems.append(
                        HostText("config.search.empty", "searchPaths[%@] is empty; remove it or name a folder", [.plain("\(index)")]))
                    continue
                }
                guard !path.utf8.contains(0) else {
                    problems.append(
                        HostText(
                            "config.search.nul", "searchPaths[%@] holds a NUL character (\\u0000), which no path can; remove it",
                            [.plain("\(index)")]))
                    continue
                }
                paths.append(FilePaths.absolute(path, relativeTo: folder))
            }
            return paths
        case let other?:
            problems.append(HostText("config.search.type", "'searchPaths' must be an array of strings, found %@", [.text(other.found)]))
            return []
        }
    }

    private static func modules(_ items: [JSONValue]) -> Entries {
        var entries = Entries()
        var firstIndexByName: [String: (index: Int, name: String)] = [:]
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else {
                entries.problems.append(
                    FileProblem(
                        HostText("config.entry.type", "modules[%@] must be an object, found %@", [.plain("\(index)"), .text(item.found)])))
                continue
            }
            var written: String?
            if case .string(let name)? = fields["name"] { written = name }
            var entryProblems: [HostText] = []
            for key in fields.keys.filter({ !moduleKeys.contains($0) }).sorted() {
                entryProblems.append(
                    HostText("config.unknown.key", "unknown key '%@'%@", [.plain("\(Escaped(key))"), .text(suggest(key, moduleKeys))]))
            }
            var name = ""
            // Whether `check` can go on with this entry, and load its library.
            var named = true
            var loadable = true
            switch fields["name"] {
            case nil:
                named = false
                entryProblems.append(HostText("config.name.missing", "'name' is missing"))
            case .string(let value)?:
                name = value
                if value.utf8.count > Self.maximumNameLength && value.count > Self.maximumNameLength {
                    // As a descriptor holds it: a longer name can never load.
                    named = false
                    entryProblems.append(
                        HostText(
                            "config.name.long", "name '%@' is %@ characters long; a module's name has at most %@",
                            [.plain("\(Escaped(value))"), .plain("\(value.count)"), .plain("\(Self.maximumNameLength)")]))
                } else if !isValidName(value) {
                    named = false
                    entryProblems.append(
                        HostText(
                            "config.name.bad",
                            "name '%@' must start with a letter and hold only letters, digits and '_' (it names lib<name>.so)",
                            [.plain("\(Escaped(value))")]))
                }
            case let other?:
                named = false
                entryProblems.append(HostText("config.name.type", "'name' must be a string, found %@", [.text(other.found)]))
            }
            var enabled = true
            switch fields["enabled"] {
            case nil: entryProblems.append(HostText("config.enabled.missing", "'enabled' is missing: add \"enabled\": true or false"))
            case .bool(let value)?: enabled = value
            case let other?:
                entryProblems.append(HostText("config.enabled.type", "'enabled' must be true or false, found %@", [.text(other.found)]))
            }
            var library: String?
            switch fields["library"] {
            case nil: break
            case .string(let value)? where value.utf8.contains(0):
                loadable = false
                entryProblems.append(
                    HostText("config.library.nul", "'library' holds a NUL character (\\u0000), which no path can; remove it"))
            case .string(let value)? where !value.isEmpty: library = value
            case .string?:
                loadable = false
                entryProblems.append(HostText("config.library.empty", "'library' is empty; remove it or give the library's path"))
            case let other?:
                loadable = false
                entryProblems.append(HostText("config.library.type", "'library' must be a string (a path), found %@", [.text(other.found)]))
            }
            var sha256: String?
            switch fields["sha256"] {
            case nil: break
            case .string(let value)? where value.count == 64 && value.allSatisfy(\.isHexDigit): sha256 = value.lowercased()
            case .string(let value)?:
                loadable = false
                entryProblems.append(
                    HostText("config.sha256.bad", "'sha256' must be 64 hex digits, found '%@'", [.plain("\(Escaped(value))")]))
            case let other?:
                loadable = false
                entryProblems.append(
                    HostText("config.sha256.type", "'sha256' must be a string of 64 hex digits, found %@", [.text(other.found)]))
            }
            var startTimeout: Duration?
            switch fields["startTimeout"] {
            case nil: break
            case .number(let value)? where value > 0 && value <= 3_600: startTimeout = .milliseconds(Int64((value * 1_000).rounded(.up)))
            case .number?:
                entryProblems.append(
                    HostText(
                        "config.timeout.range", "'startTimeout' must be a number of seconds above 0 and at most 3600, found %@",
                        [.text(fields["startTimeout"]?.found ?? .plain(""))])
                )
            case let other?:
                entryProblems.append(
                    HostText("config.timeout.type", "'startTimeout' must be a number of seconds, found %@", [.text(other.found)]))
            }
            var isolation = ModuleIsolation.none
            switch fields["isolation"] {
            case nil: break
            case .string(let value)?:
                if let known = ModuleIsolation(rawValue: value) {
                    isolation = known
                } else {
                    entryProblems.append(
                        HostText(
                            "config.isolation.value", "'isolation' must be \"none\" or \"process\", found '%@'",
                            [.plain("\(Escaped(value))")]))
                }
            case let other?:
                entryProblems.append(
                    HostText(
                        "config.isolation.type", "'isolation' must be the string \"none\" or \"process\", found %@", [.text(other.found)]))
            }
            let (deny, sandbox) = Self.sandboxFields(fields, problems: &entryProblems)
            let limits = Self.limits(fields["limits"], problems: &entryProblems)
            var config: [UInt8]?
            switch fields["config"] {
            case nil: break
            case .object(let value)?: config = JSONValue.object(value).serializedBytes
            case let other?:
                entryProblems.append(HostText("config.config.type", "'config' must be an object, found %@", [.text(other.found)]))
            }
            if !name.isEmpty {
                if let first = firstIndexByName[ModuleName(name).key] {
                    named = false
                    entryProblems.append(
                        HostText(
                            "config.duplicate", "duplicate name: modules[%@] is already named '%@'",
                            [.plain("\(first.index)"), .plain(first.name)]))
                } else {
                    firstIndexByName[ModuleName(name).key] = (index, name)
                }
            }
            entries.problems += entryProblems.map { FileProblem($0, entry: index, module: written) }
            guard named else { continue }
            entries.checkable.append(
                ModuleEntry(
                    name: name, enabled: enabled, library: library, config: config, sha256: sha256, startTimeout: startTimeout,
                    index: index, isolation: isolation, deny: deny, sandbox: sandbox, limits: limits))
            if !loadable { entries.unloadable.append(name) }
        }
        return entries
    }

    /// "; did you mean 'x'?" when a near candidate exists, else nothing.
    private static func suggest(_ word: String, _ candidates: [String]) -> HostText {
        nearest(to: word, among: candidates).map { HostText("config.suggest", "; did you mean '%@'?", [.plain($0)]) } ?? .plain("")
    }

    /// The start of the first string longer than the limit, found before parsing.
    private static func longString(in data: [UInt8]) -> String? {
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

    /// The longest name a module's descriptor may carry, and so an entry.
    static let maximumNameLength = 128

    static func isValidName(_ name: String) -> Bool {
        // On bytes: every byte of a valid name is an ASCII letter, digit or '_'.
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        guard let first = name.utf8.first, isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") }
    }
}
