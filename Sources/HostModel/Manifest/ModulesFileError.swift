@_spi(Host) import ModuleKit

/// `modules.json` could not be used; one message per problem found.
public struct ModulesFileError: Error, Sendable, Equatable {
    /// The file, as given.
    public let path: String
    /// Each problem, naming the entry and the key, to be said in the person's language.
    package let texts: [HostText]

    init(path: String, texts: [HostText]) {
        self.path = path
        self.texts = texts
    }

    /// Problems already written (in English).
    public init(path: String, problems: [String]) {
        self.init(path: path, texts: problems.map(HostText.plain))
    }

    /// Each problem in English, one line.
    public var problems: [String] { texts.map(\.description) }

    /// The same file and the same problems, whatever language they will be said in.
    public static func == (left: ModulesFileError, right: ModulesFileError) -> Bool {
        left.path == right.path && left.problems == right.problems
    }
}

extension ModulesFileError: CustomStringConvertible {
    public var description: String {
        problems.map { "'\(path)': \($0)" }.joined(separator: "\n")
    }
}

/// What reading `modules.json` found: every problem, and what can still be checked despite
/// them (what `modhost check` goes on with, to tell every problem of one file at once).
public struct ModulesFileReading: Sendable {
    /// The file, as given.
    public let path: String
    /// Every problem of the file itself, in file order.
    package let problems: [FileProblem]
    /// The file's settings and its entries that can be checked; `nil` when the file cannot
    /// be used at all (missing, unreadable, not JSON, not an object, no `modules` list).
    public let checkable: HostConfiguration?
    /// Entries of ``checkable`` whose library must not be loaded: their `library` or
    /// `sha256` is wrong, so what would run is not what the file names.
    public let unloadable: [String]

    init(path: String, problems: [HostText], checkable: HostConfiguration? = nil, unloadable: [String] = []) {
        self.init(path: path, problems: problems.map { FileProblem($0) }, checkable: checkable, unloadable: unloadable)
    }

    init(path: String, problems: [FileProblem], checkable: HostConfiguration? = nil, unloadable: [String] = []) {
        self.path = path
        self.problems = problems
        self.checkable = checkable
        self.unloadable = unloadable
    }

    /// The problems, as the error a run stops with.
    public var error: ModulesFileError? { problems.isEmpty ? nil : ModulesFileError(path: path, texts: problems.map(\.labeled)) }

    /// The configuration, when the file has no problem.
    ///
    /// - Throws: ``ModulesFileError`` with every problem found.
    public func configuration() throws(ModulesFileError) -> HostConfiguration {
        guard let checkable, problems.isEmpty else { throw ModulesFileError(path: path, texts: problems.map(\.labeled)) }
        return checkable
    }
}

/// One problem of `modules.json`: of the file, or of one entry in `modules`.
package struct FileProblem: Sendable {
    /// The entry's position in `modules`; `nil` for the file's own.
    package let entry: Int?
    /// The entry's name as written, if it has one.
    package let module: String?
    /// The problem, without the entry's label.
    package let text: HostText

    package init(_ text: HostText, entry: Int? = nil, module: String? = nil) {
        self.text = text
        self.entry = entry
        self.module = module
    }

    /// `modules[2] ('Geo')`, or `modules[2]` when the name is unknown; `nil` for the file's own.
    package var label: String? {
        guard let entry else { return nil }
        return module.map { "modules[\(entry)] ('\(Escaped($0))')" } ?? "modules[\(entry)]"
    }

    /// The problem as a line after the file's name: `modules[1] ('Photos'): 'sha256' must be…`.
    package var labeled: HostText {
        label.map { HostText("config.entry", "%@: %@", [.plain($0), .text(text)]) } ?? text
    }
}
