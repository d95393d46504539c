import Foundation

/// A private world for one test, run by the real `modhost`: a temporary folder with its own
/// data folder and a `modules.json` written from a Swift description, the environment and the
/// language the host sees. Commands, the app on a pseudo-terminal, and what happened after
/// (module states, crash records, files) are all read from that world.
///
/// ```swift
/// let host = try TestHost(modules: [.shipped("Geo"), .shipped("Settings"), .library(notesLibrary)])
/// let added = try host.run("geo", "add", "--country", "FR", "--city", "Paris")
/// #expect(added.succeeded)
/// let app = try host.app()
/// try app.waitFor("Home")
/// ```
///
/// The folder is removed when the value goes away.
public final class TestHost: Sendable {
    /// One entry of the world's `modules.json`.
    public struct Module: Sendable {
        public var name: String
        /// The library's path; `nil` for a module shipped beside the host (found in its folder).
        public var library: String?
        public var enabled: Bool
        /// The module's `config` object, as JSON text.
        public var config: String?
        /// Its `startTimeout`, in seconds.
        public var startTimeout: Double?

        public init(name: String, library: String? = nil, enabled: Bool = true, config: String? = nil, startTimeout: Double? = nil) {
            self.name = name
            self.library = library
            self.enabled = enabled
            self.config = config
            self.startTimeout = startTimeout
        }

        /// A module shipped with the host, found beside its executable (`lib<Name>.so`).
        public static func shipped(_ name: String, enabled: Bool = true, config: String? = nil) -> Module {
            Module(name: name, enabled: enabled, config: config)
        }

        /// The module in the library at `path`, named as the file (`libNotes.so` → `Notes`)
        /// unless `name` is given.
        public static func library(
            _ path: String, name: String? = nil, enabled: Bool = true, config: String? = nil, startTimeout: Double? = nil
        ) -> Module {
            let file = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let derived = file.hasPrefix("lib") ? String(file.dropFirst(3)) : file
            return Module(name: name ?? derived, library: path, enabled: enabled, config: config, startTimeout: startTimeout)
        }

        /// The entry as `modules.json` holds it.
        var json: String {
            var fields = ["\"name\": \(Self.quoted(name))", "\"enabled\": \(enabled)"]
            if let library { fields.append("\"library\": \(Self.quoted(library))") }
            if let config { fields.append("\"config\": \(config)") }
            if let startTimeout { fields.append("\"startTimeout\": \(startTimeout)") }
            return "{" + fields.joined(separator: ", ") + "}"
        }

        static func quoted(_ text: String) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The `modhost` that runs.
    public let executable: String
    /// The world's folder: its data folder, its `modules.json`, and a home.
    public let folder: String
    /// Where the modules keep their data (`MODHOST_DATA_DIR`).
    public let dataFolder: String
    /// The world's `modules.json` (`MODHOST_CONFIG`).
    public let modulesFile: String
    /// What every command of this world runs with.
    public let environment: [String: String]
    /// `modules.json`'s `environment`: `development`, `test`, `stage` or `production`.
    public let hostEnvironment: String

    /// Makes a world of `modules`.
    ///
    /// - Parameters:
    ///   - executable: the `modhost` to run; else `MODHOST_EXECUTABLE`, else a `modhost` beside
    ///     the test's own executable, else on `PATH`.
    ///   - language: the person's language (`en`, `fr`…), as `LANG` says it.
    ///   - environment: more variables, over the world's.
    ///   - hostEnvironment: what `modules.json` says the host runs as (modules may read it).
    /// - Throws: ``HostTestingError/noHost(searched:)`` or ``HostTestingError/noLibrary(path:)``.
    public init(
        modules: [Module], executable: String? = nil, language: String = "en", environment: [String: String] = [:],
        hostEnvironment: String = "test"
    ) throws {
        self.hostEnvironment = hostEnvironment
        self.executable = try Self.locateHost(explicit: executable)
        for module in modules {
            if let library = module.library, !FileManager.default.fileExists(atPath: library) {
                throw HostTestingError.noLibrary(path: library)
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modhost-world-\(UUID().uuidString)").path
        // Not writable by others (the host refuses data folders and libraries others could
        // write); the world's folder itself others may read and enter, as a home folder.
        try FileManager.default.createDirectory(
            atPath: folder + "/data", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        self.folder = folder
        dataFolder = folder + "/data"
        modulesFile = folder + "/modules.json"
        var variables = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("MODHOST_") && !key.hasPrefix("LC_") && key != "LANG" && key != "LANGUAGE"
        }
        variables["MODHOST_CONFIG"] = modulesFile
        variables["MODHOST_DATA_DIR"] = dataFolder
        variables["HOME"] = folder + "/home"
        variables["LANG"] = Self.localeVariable(language)
        for (key, value) in environment { variables[key] = value }
        self.environment = variables
        try write(modules)
    }

    /// Writes `modules` as the world's `modules.json`, replacing what it held.
    public func write(_ modules: [Module]) throws {
        let entries = modules.map { "    " + $0.json }.joined(separator: ",\n")
        let text = "{\n  \"environment\": \(Module.quoted(hostEnvironment)),\n  \"modules\": [\n\(entries)\n  ]\n}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: modulesFile))
    }

    // MARK: - Commands

    /// Runs `modhost ARGUMENTS…` and returns how it ended and what it wrote.
    ///
    /// - Parameters:
    ///   - input: what it reads on standard input (a password for `--password-stdin`), then end
    ///     of input.
    ///   - timeout: the time limit; a command still running then is killed and the test told.
    public func run(_ arguments: String..., input: String = "", timeout: Duration = .seconds(60)) throws -> CommandResult {
        try run(arguments: arguments, input: input, timeout: timeout)
    }

    /// ``run(_:input:timeout:)`` with the arguments as an array; `inputBytes`, when given, is
    /// written instead of `input` (bytes that are not UTF-8), and `environment` adds to the
    /// world's for this command.
    public func run(
        arguments: [String], input: String = "", inputBytes: [UInt8]? = nil, environment extra: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) throws -> CommandResult {
        let program = try start(arguments: arguments, environment: extra)
        program.write(bytes: inputBytes ?? Array(input.utf8))
        program.closeInput()
        return try program.wait(timeout: timeout)
    }

    /// Runs `modhost ARGUMENTS… --json`-style commands and decodes what they print.
    ///
    /// - Throws: ``HostTestingError/notJSON(command:output:reason:)``, naming the command.
    public func json<Value: Decodable>(_ type: Value.Type, _ arguments: String..., timeout: Duration = .seconds(60)) throws -> Value {
        try run(arguments: arguments, timeout: timeout).decode(Value.self)
    }

    /// Starts `modhost ARGUMENTS…` with pipes and leaves it running (to signal it, or to talk
    /// to it line by line).
    public func start(arguments: [String], environment extra: [String: String] = [:]) throws -> RunningProgram {
        try RunningProgram([executable] + arguments, environment: environment.merging(extra) { $1 }, directory: folder)
    }

    /// Starts the app (`modhost`, or `modhost ARGUMENTS…`) on a new pseudo-terminal of `rows`
    /// by `columns`, as `TERM` says (default `xterm-256color`).
    ///
    /// In the line mode by default (`MODHOST_UI=plain`), the one ``TerminalSession/answer(_:timeout:)``
    /// and ``TerminalSession/choose(_:timeout:)`` speak: a line typed, then Enter. With
    /// `fullScreen`, the app as a person sees it on a terminal: whole screens redrawn in place,
    /// driven by keys (``TerminalSession/press(_:)``, ``TerminalSession/type(_:)``).
    public func app(
        _ arguments: String..., rows: Int = 24, columns: Int = 80, fullScreen: Bool = false,
        environment extra: [String: String] = [:]
    ) throws -> TerminalSession {
        try app(arguments: arguments, rows: rows, columns: columns, fullScreen: fullScreen, environment: extra)
    }

    /// ``app(_:rows:columns:fullScreen:environment:)`` with the arguments as an array.
    public func app(
        arguments: [String], rows: Int = 24, columns: Int = 80, fullScreen: Bool = false, environment extra: [String: String] = [:]
    ) throws -> TerminalSession {
        var variables = environment
        if variables["TERM"] == nil || variables["TERM"] == "dumb" { variables["TERM"] = "xterm-256color" }
        if fullScreen { variables["MODHOST_UI"] = nil } else { variables["MODHOST_UI"] = "plain" }
        for (key, value) in extra { variables[key] = value }
        return try TerminalSession([executable] + arguments, environment: variables, rows: rows, columns: columns, directory: folder)
    }

    // MARK: - What happened

    /// Each module's state as `modhost modules --json` reports it.
    public func modules() throws -> [ModuleStatus] {
        try run("modules", "--json").decode(ModuleList.self).modules
    }

    /// The state of module `name` (case as in `modules.json`), or `nil` when it has no entry.
    public func module(_ name: String) throws -> ModuleStatus? {
        try modules().first { $0.name.lowercased() == name.lowercased() }
    }

    /// The crash records the host keeps in the data folder, as text (empty when none). A crash
    /// becomes a record at the next start, from the marker the crashed process left.
    public var crashRecords: String {
        (try? String(contentsOfFile: dataFolder + "/.modhost/crashes", encoding: .utf8)) ?? ""
    }

    /// Every file in the data folder, by its path relative to it, sorted.
    public var dataFiles: [String] {
        let enumerator = FileManager.default.enumerator(atPath: dataFolder)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: dataFolder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(path)
            }
        }
        return files.sorted()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// `lib<Name>.so` as this package's build made it: in the folder of the running test
    /// executable (`.build/debug`).
    public static func builtLibrary(_ name: String) -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("lib\(name).so").path
    }

    // MARK: - Finding the host

    /// The `modhost` to run: `explicit`, else `MODHOST_EXECUTABLE`, else beside this test's
    /// executable, else on `PATH`.
    static func locateHost(explicit: String?) throws -> String {
        var candidates: [String] = []
        if let explicit { candidates.append(explicit) }
        if let variable = ProcessInfo.processInfo.environment["MODHOST_EXECUTABLE"], !variable.isEmpty { candidates.append(variable) }
        if explicit == nil {
            let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            candidates.append(URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("modhost").path)
            for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
                candidates.append(String(folder) + "/modhost")
            }
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw HostTestingError.noHost(searched: candidates)
    }

    /// `LANG` for a language code: `C.UTF-8` for English, `fr_FR.UTF-8` for `fr`, a full
    /// locale name as it is.
    static func localeVariable(_ language: String) -> String {
        if language.contains("_") || language.contains(".") { return language }
        let regions = ["en": "C", "el": "el_GR", "es": "es_ES", "fr": "fr_FR", "de": "de_DE", "it": "it_IT"]
        return (regions[language] ?? "\(language)_\(language.uppercased())") + ".UTF-8"
    }
}

/// A module as `modhost modules --json` reports it.
public struct ModuleStatus: Decodable, Sendable, Equatable {
    public let name: String
    /// `active`, `disabled`, `failed` or `skipped`.
    public let state: String
    /// Why it is not active; `nil` when it is.
    public let reason: String?
    public let version: String?
    public let library: String?
    public let provides: [String]
    public let requires: [String]
    public let uses: [String]
}

struct ModuleList: Decodable {
    let modules: [ModuleStatus]
}
