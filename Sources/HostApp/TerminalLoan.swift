import CHostGuard
import Contracts
import Glibc
import HostIsolation
import HostLifecycle
@_spi(Host) import ModuleKit

/// The terminal lent between the host and a module's own process: one side steps out of full
/// screen and waits while the other runs screens on its standard input, output and error.
@MainActor
package enum TerminalLoan {
    /// Lends the terminal for `body` (told whether the app was full screen, the keys typed
    /// ahead here, which the borrower reads first, and the breadcrumb to show under), steps
    /// back into full screen after, reading first what was typed ahead there, and says where
    /// to go: back, or quit when the person quit there. A failure is said above the next
    /// screen, where the person looks.
    static func lend(
        _ ui: TerminalUI, strings: ModuleStrings, _ body: (LentTerminal) throws(RouteCallError) -> LentTerminalEnd
    ) -> Navigation {
        let fullScreen = FullScreenMode.isActive
        // What this process writes to standard error while the borrower's screen is up would
        // land on it: held until this one's screen is back, then shown above its next screen.
        let holds = fullScreen && FullScreenMode.holdsErrors
        if holds { StandardError.hold() }
        defer { if holds { StandardError.unhold() } }
        // Taken before full screen is left: its reader and its breadcrumb go with it.
        let trail = ui.breadcrumbTrail
        // The first step is the app's first screen (Home), titled by the host's string, unless
        // steps lent from another process are above it: said again by the borrower in a
        // language chosen there. A module's screen that reads the same is not taken for it.
        let keys: [String?] = ui.screensShownUnder().isEmpty ? [StringKey.titleKeys.first { strings[$0] == trail.first }?.rawValue] : []
        let lent = LentTerminal(fullScreen: fullScreen, typedAhead: ui.takeTypedAhead(), trail: trail, trailKeys: keys)
        if fullScreen { FullScreenMode.leave(ui) }
        var failure: String?
        var end = LentTerminalEnd(quit: false, typedAhead: [])
        do throws(RouteCallError) {
            end = try body(lent)
        } catch {
            failure = "\(error)"
        }
        if end.quit { return .quit }
        if fullScreen {
            _ = FullScreenMode.enter(ui, strings: strings)
            ui.giveTypedAhead(end.typedAhead)
        }
        if let failure { ui.error(failure) }
        return .pop
    }

    /// Runs `screen` and every screen it leads to on the lent terminal (`descriptors`: the
    /// lender's standard input, output and error), full screen when the lender was, reading
    /// first the keys the lender read ahead, under the lender's breadcrumb.
    /// - Returns: Whether the person quit the app there, not only left these screens, and what
    ///   they typed ahead here, for the lender.
    package static func run(
        _ screen: any Screen, on descriptors: [Int32], lent: LentTerminal, runtime: HostRuntime, navigator: Navigator? = nil
    ) throws -> LentTerminalEnd {
        // A relayed screen runs on a stack of its own: the main one may be running below it.
        let navigator = navigator ?? Navigator(ui: runtime.navigator.ui)
        return try onTerminal(descriptors) {
            // Left only when entered here: a screen shown while already full screen stays so.
            let entered = lent.fullScreen && !FullScreenMode.isActive && FullScreenMode.enter(navigator.ui, strings: runtime.strings)
            let above = navigator.ui.screensShownUnder
            // Asked again at each screen: a language chosen here retitles the host's steps.
            if entered { navigator.ui.showScreens(under: { lent.trail(in: runtime.strings, honouring: StringKey.titleKeys) }) }
            navigator.ui.giveTypedAhead(lent.typedAhead)
            // Someone logging in or out here (on Settings' screen in its own process): these
            // screens end, and the host's Welcome or Home, which it asked for, comes next, as
            // in one process.
            let watch = personChange(runtime) { navigator.requestRoot(LeaveLentScreens()) }
            defer { watch?.cancel() }
            navigator.run(root: screen)
            let left = navigator.ui.takeTypedAhead()
            if entered {
                navigator.ui.showScreens(under: above)
                FullScreenMode.leave(navigator.ui)
            }
            return LentTerminalEnd(quit: navigator.endedByQuit, typedAhead: left)
        }
    }

    /// Calls `changed` when another person logs in or out than the one logged in now (not when
    /// the same person renames themselves), as the app's shell watches; `nil` where this process
    /// has no route to the person (its module does not use Auth).
    private static func personChange(_ runtime: HostRuntime, _ changed: @escaping @MainActor () -> Void) -> (any AuthObservation)? {
        guard let auth = runtime.resolver.ifAvailable((any AuthRoute).self) else { return nil }
        var shown = auth.currentUser?.email
        return auth.observe { user in
            guard user?.email != shown else { return }
            shown = user?.email
            changed()
        }
    }

    /// Runs `body` with `descriptors` as this process's standard input, output and error, put
    /// back after; with none, on this process's own.
    package static func onTerminal<Result>(_ descriptors: [Int32], _ body: () -> Result) throws -> Result {
        if descriptors.isEmpty { return body() }
        guard descriptors.count == 3 else {
            throw LoanRefusal(why: "a command or a screen needs the standard input, output and error of the process that asks")
        }
        // Kept from anything started meanwhile: its own copy of the pipe would outlive it.
        let saved = (0..<3).map { fcntl(Int32($0), F_DUPFD_CLOEXEC, 10) }
        // Each of this process's own is kept before any is replaced, or none is replaced.
        guard saved.allSatisfy({ $0 >= 0 }) else {
            for descriptor in saved where descriptor >= 0 { close(descriptor) }
            throw LoanRefusal(why: "the terminal could not be taken: \(String(cString: strerror(errno)))")
        }
        // What was printed before goes where it was printed for.
        _ = modhost_flush_stdout()
        for (index, descriptor) in descriptors.enumerated() { dup2(descriptor, Int32(index)) }
        // The guard puts these back after a module call that replaced one, not the process's
        // own (off the terminal: see OffTheTerminal), and those again once the loan ends.
        modhost_guard_keep_standard_descriptors_as_they_are()
        defer {
            // What was printed on the lent terminal goes there, not after the loan.
            _ = modhost_flush_stdout()
            for (index, descriptor) in saved.enumerated() where descriptor >= 0 {
                dup2(descriptor, Int32(index))
                close(descriptor)
            }
            modhost_guard_keep_standard_descriptors_as_they_are()
        }
        return body()
    }

    struct LoanRefusal: Error, CustomStringConvertible {
        let why: String
        var description: String { why }
    }
}

/// Ends the screens run on a lent terminal: the lender's own next screen comes then.
@MainActor
private final class LeaveLentScreens: Screen {
    func show(_ ui: TerminalUI) -> Navigation { .pop }
}
