import HostModel
@_spi(Host) import ModuleKit

/// A module library the loader refused, and why.
public struct LoadError: Error, Sendable, Equatable {
    /// The kind of refusal, for code that reacts to it.
    public enum Kind: Sendable, Equatable {
        case missingFile, notLoadable, missingEntry, noDescriptor, abiMismatch
        case malformedDescriptor, nameMismatch, duplicatePath, noInstance
        /// Built against an SDK release or by a compiler this host's kit cannot run it with.
        case sdkMismatch
        /// It needs a symbol of the kit (or of another library) that the process lacks.
        case missingSymbol
        /// The file or a folder above it fails the trust rules, or is not a regular file.
        case untrusted
        /// The file's SHA-256 differs from the `sha256` pinned in modules.json.
        case checksumMismatch
        /// What the module's code declares differs from the descriptor in its file.
        case descriptorMismatch
    }

    public let kind: Kind
    /// The module's name in `modules.json`.
    public let module: String
    /// The library's path.
    public let path: String
    /// The cause and the fix, without the module and path (``description`` adds them), as a
    /// host message for the person's language.
    package let causeText: HostText
    /// The cause and the fix in English.
    public var cause: String { causeText.description }

    package init(kind: Kind, module: String, path: String, text: HostText) {
        self.kind = kind
        self.module = module
        self.path = path
        causeText = text
    }

    public init(kind: Kind, module: String, path: String, cause: String) {
        self.init(kind: kind, module: module, path: path, text: .plain(cause))
    }
}

extension LoadError: CustomStringConvertible {
    public var description: String {
        "module '\(module)': library '\(EscapedPath(path))' \(cause)"
    }
}
