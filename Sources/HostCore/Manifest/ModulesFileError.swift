/// `modules.json` could not be used; `problems` holds one line per problem found.
public struct ModulesFileError: Error, Sendable, Equatable {
    /// The file, as given.
    public let path: String
    /// Each problem, one line, naming the entry and the key.
    public let problems: [String]
}

extension ModulesFileError: CustomStringConvertible {
    public var description: String {
        problems.map { "'\(path)': \($0)" }.joined(separator: "\n")
    }
}
