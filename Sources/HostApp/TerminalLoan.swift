import Glibc
import HostIsolation
import HostLifecycle
@_spi(Host) import ModuleKit

/// The terminal lent between the host and a module's own process: one side steps out of full
/// screen and waits while the other runs screens on its standard input, output and error.
@MainActor
package enum TerminalLoan {
    /// Lends the terminal for `body` (told whether the app was full screen), steps back into
    /// full screen after, and says where to go: back, or quit when the person quit there. A
    /// failure is said above the next screen, where the person looks.
    static func lend(_ ui: TerminalUI, strings: ModuleStrings, _ body: (Bool) throws(RouteCallError) -> Bool) -> Navigation {
        let fullScreen = FullScreenMode.isActive
        if fullScreen { FullScreenMode.leave(ui) }
        var failure: String?
        var quit = false
        do throws(RouteCallError) {
            quit = try body(fullScreen)
        } catch {
            failure = "\(error)"
        }
        if quit { return .quit }
        if fullScreen { _ = FullScreenMode.enter(ui, strings: strings) }
        if let failure { ui.error(failure) }
        return .pop
    }

    /// Runs `screen` and every screen it leads to on the lent terminal (`descriptors`: the
    /// lender's standard input, output and error), full screen when the lender was.
    /// - Returns: Whether the person quit the app there, not only left these screens.
    package static func run(
        _ screen: any Screen, on descriptors: [Int32], fullScreen: Bool, runtime: HostRuntime, navigator: Navigator? = nil
    ) throws -> Bool {
        // A relayed screen runs on a stack of its own: the main one may be running below it.
        let navigator = navigator ?? Navigator(ui: runtime.navigator.ui)
        return try onTerminal(descriptors) {
            // Left only when entered here: a screen shown while already full screen stays so.
            let entered = fullScreen && !FullScreenMode.isActive && FullScreenMode.enter(navigator.ui, strings: runtime.strings)
            navigator.run(root: screen)
            if entered { FullScreenMode.leave(navigator.ui) }
            return navigator.endedByQuit
        }
    }

    /// Runs `body` with `descriptors` as this process's standard input, output and error, put
    /// back after; with none, on this process's own.
    package static func onTerminal<Result>(_ descriptors: [Int32], _ body: () -> Result) throws -> Result {
        if descriptors.isEmpty { return body() }
        guard descriptors.count == 3 else {
            throw LoanRefusal(why: "a command or a screen needs the standard input, output and error of the process that asks")
        }
        let saved = (0..<3).map { dup(Int32($0)) }
        // Each of this process's own is kept before any is replaced, or none is replaced.
        guard saved.allSatisfy({ $0 >= 0 }) else {
            for descriptor in saved where descriptor >= 0 { close(descriptor) }
            throw LoanRefusal(why: "the terminal could not be taken: \(String(cString: strerror(errno)))")
        }
        for (index, descriptor) in descriptors.enumerated() { dup2(descriptor, Int32(index)) }
        defer {
            for (index, descriptor) in saved.enumerated() where descriptor >= 0 {
                dup2(descriptor, Int32(index))
                close(descriptor)
            }
        }
        return body()
    }

    struct LoanRefusal: Error, CustomStringConvertible {
        let why: String
        var description: String { why }
    }
}
