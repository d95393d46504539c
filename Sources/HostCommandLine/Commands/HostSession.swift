import FoundationEssentials
import Glibc
import HostLifecycle
import HostLoading
import HostModel
@_spi(Host) import ModuleKit

/// One run of a parsed command against a runtime, on the main actor (where the app and the
/// commands run).
@MainActor
struct HostSession {
    let runtime: HostRuntime
    let console: Console
    /// For `check`: the problems of `modules.json`, which it goes on despite.
    var fileReading: ModulesFileReading?
    /// Whether the app runs full screen (see ``FullScreenMode/wanted(plain:environment:)``).
    var fullScreen = false

    /// The command line this session runs (what children are given, from its options).
    let arguments: CommandLineArguments

    /// Runs the parsed command.
    func run(_ command: any CommandInSession) -> Int32 {
        Console.localize(with: runtime.strings)
        return command.run(in: self)
    }
}

/// An exit status as an error, for paths that end a command early.
struct ExitStatus: Error {
    let code: Int32
}
