/// An error a module's command (or screen) ends with, that the host prints for a person.
///
/// The host prints `modhost: error: <module> <command>: <message>` with the message in the
/// module's own strings (the current language) and exits with ``exitCode``. An error of any
/// other type is printed as it describes itself and exits 1.
///
/// ```swift
/// extension GeoError: ModuleError {}   // it already has message(_:)
/// ModuleCommand(name: "add", summary: "Save a city", usage: "add --city NAME") { invocation in
///     try interactor.add(city)          // a GeoError reaches the person in their language
/// }
/// ```
public protocol ModuleError: Error {
    /// What went wrong and what to do, in `strings`' language.
    func message(_ strings: ModuleStrings) -> String
    /// The process's exit status: 1 for a failure (the default), 2 for bad usage.
    var exitCode: Int32 { get }
}

extension ModuleError {
    public var exitCode: Int32 { 1 }
}

/// A failure whose message is already written in the person's language.
public struct CommandFailure: ModuleError, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    public init(_ message: String) {
        description = message
    }

    public func message(_ strings: ModuleStrings) -> String { description }
}

extension CommandUsageError: ModuleError {
    /// Bad usage: the host also prints the command's usage.
    public var exitCode: Int32 { 2 }

    public func message(_ strings: ModuleStrings) -> String { message }
}
