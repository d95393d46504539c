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
