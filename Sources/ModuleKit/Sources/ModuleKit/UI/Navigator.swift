/// A screen of the interactive app (the "View" of SILVER): it shows itself, reads what it
/// needs, and says where to go next. A screen owns its module's objects strongly, so popping
/// it frees them.
@MainActor
public protocol Screen: AnyObject {
    func show(_ ui: TerminalUI) -> Navigation
    /// Its title as it would show it now, in the current language: the breadcrumb asks the
    /// screens below the one on view, so that it speaks the language just chosen (Settings'
    /// language) and not the one they were shown in. `nil` (the default): the title the
    /// screen last showed.
    ///
    /// - Since: SDK 1.6.0.
    var title: String? { get }
}

extension Screen {
    /// The title the screen last showed is used.
    public var title: String? { nil }
}

/// Where the app goes after a screen.
public enum Navigation {
    /// Show this screen on top; back returns here.
    case push(any Screen)
    /// Back to the screen below.
    case pop
    /// Swap this screen for another; back goes below both (a step of a wizard).
    case replace(any Screen)
    /// Forget every screen and start again from this one.
    case replaceRoot(any Screen)
    /// Show the same screen again.
    case stay
    /// End the app.
    case quit
}

/// The stack of screens the app runs, shared by the host and every module. It lives on the
/// main actor, as every screen does: only the app's thread touches it, and the compiler checks.
@MainActor
public final class Navigator {
    private var stack: [any Screen] = []
    private var pending: [Navigation] = []
    public let ui: TerminalUI

    nonisolated public init(ui: TerminalUI) {
        self.ui = ui
    }

    /// How many screens are on the stack.
    public var depth: Int { stack.count }

    /// Asks the app to start again from `screen` before the next screen is shown: for a
    /// change that happens outside the current screen (log out, log in elsewhere).
    public func requestRoot(_ screen: any Screen) {
        pending.append(.replaceRoot(screen))
    }

    /// Shows `screen` on top before the next screen is shown: how a route presents a flow
    /// of its module (log in, …) from another module's screen.
    public func present(_ screen: any Screen) {
        pending.append(.push(screen))
    }

    /// How many navigations wait to be applied: the mark ``takePresented(since:)`` takes from.
    @_spi(Host) public var pendingCount: Int { pending.count }

    /// Takes the screens ``present(_:)`` was given since `mark` (a ``pendingCount``), leaving
    /// every other navigation waiting: the host shows them in another process, the one that
    /// asked for the call that presented them.
    @_spi(Host) public func takePresented(since mark: Int) -> [any Screen] {
        guard mark >= 0, mark < pending.count else { return [] }
        var presented: [any Screen] = []
        var kept = Array(pending[..<mark])
        for navigation in pending[mark...] {
            if case .push(let screen) = navigation { presented.append(screen) } else { kept.append(navigation) }
        }
        pending = kept
        return presented
    }

    /// Whether the last ``run(root:)`` ended because a screen quit, not because the person left
    /// the last screen: the host quits too when screens it lent its terminal for quit.
    @_spi(Host) public private(set) var endedByQuit = false

    /// Runs screens from `root` until one quits, the stack empties, or input ends.
    public func run(root: any Screen) {
        stack = [root]
        endedByQuit = false
        while let top = stack.last {
            if !pending.isEmpty {
                apply(pending.removeFirst())
                continue
            }
            ui.fullScreen?.depth = stack.count
            // The screens below, as they would title themselves now (the language may change).
            ui.fullScreen?.liveTitles = stack.dropLast().map(\.title)
            ui.refreshTrailAbove()
            ui.beforeEachScreen?(ui)
            apply(top.show(ui))
        }
        pending.removeAll()
    }

    private func apply(_ navigation: Navigation) {
        switch navigation {
        case .push(let screen): stack.append(screen)
        case .pop: _ = stack.popLast()
        case .replace(let screen):
            _ = stack.popLast()
            stack.append(screen)
        case .replaceRoot(let screen): stack = [screen]
        case .stay: break
        case .quit:
            stack.removeAll()
            pending.removeAll()
            endedByQuit = true
        }
    }
}
