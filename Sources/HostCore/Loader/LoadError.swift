/// A module library the loader refused, and why.
public struct LoadError: Error, Sendable, Equatable {
    /// The kind of refusal, for code that reacts to it.
    public enum Kind: Sendable, Equatable {
        case missingFile, notLoadable, missingEntry, noDescriptor, abiMismatch
        case malformedDescriptor, fingerprintMismatch, nameMismatch, duplicatePath, noInstance
    }

    public let kind: Kind
    /// The module's name in `modules.json`.
    public let module: String
    /// The library's path.
    public let path: String
    /// The cause and the fix, without the module and path (``description`` adds them).
    public let cause: String
}

extension LoadError: CustomStringConvertible {
    public var description: String {
        "module '\(module)': library '\(path)' \(cause)"
    }
}
