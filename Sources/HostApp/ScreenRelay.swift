import HostIsolation
import HostLifecycle
@_spi(Host) import ModuleKit

/// Screens presented across the process boundary. A route that presents a flow (Geo's city
/// picker) calls its process's navigator; when that call came from the other process, the
/// screen is kept here and the other process pushes a stand-in (``RelayedScreen``) that, when
/// shown, lends this process the terminal to run it. So the screen shows where and when it would
/// in one process: after the caller's screen, before what its completion presents.
///
/// One relay per process, served to the other side as the route ``route``; every route this
/// process serves across is wrapped (``relaying(_:)``) so that what its calls present is relayed.
@MainActor
package final class ScreenRelay: ScreenRelaying {
    package static let route = IsolatedModule.screens
    /// How many relayed screens are kept for the other process to show: a screen it never shows
    /// (its stack was replaced) is let go after this many newer ones.
    static let keptLimit = 64

    let runtime: HostRuntime
    /// Whether `show` runs on the descriptors that come with it: a module's process runs on
    /// the terminal the host lends it; the host runs on its own, whatever a module sends.
    let runsOnLentTerminal: Bool
    /// Each screen kept, with the link of the process it was kept for: only that one shows it.
    private var kept: [Kept] = []

    private struct Kept {
        weak var link: RouteLink?
        let token: UInt64
        let screen: any Screen

        /// Whether the process it was kept for can still show it.
        var isLive: Bool { link.map { $0.failed == nil } ?? false }
    }
    private var nextToken: UInt64 = 0

    nonisolated package init(runtime: HostRuntime, runsOnLentTerminal: Bool) {
        self.runtime = runtime
        self.runsOnLentTerminal = runsOnLentTerminal
    }

    /// `dispatcher`, with what its main-actor calls present sent to the process that called.
    nonisolated package func relaying(_ dispatcher: any RouteDispatching) -> any RouteDispatching {
        Relaying(inner: dispatcher, relay: self)
    }

    nonisolated package func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? { nil }

    package func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
        switch member {
        case "present":
            // The other process kept a screen: shown here in its turn, run there. Only as part
            // of a call of this process to it (what its answer presented), a bounded number.
            let token = try call.value(0, as: UInt64.self)
            guard call.link.isCalling else { throw RelayRefusal(why: "a screen presented while it was not called") }
            guard runtime.navigator.pendingCount < Self.keptLimit else {
                throw RelayRefusal(why: "more than \(Self.keptLimit) screens presented at once")
            }
            runtime.navigator.present(RelayedScreen(token: token, peer: .route(Self.route, on: call.link), runtime: runtime))
            return .void
        case "show":
            let (token, lent) = (try call.value(0, as: UInt64.self), try call.value(1, as: LentTerminal.self))
            kept.removeAll { !$0.isLive }
            guard let index = kept.firstIndex(where: { $0.token == token && $0.link === call.link }) else {
                throw RelayRefusal(why: "the screen it presented is no longer kept (\(Self.keptLimit) newer ones were)")
            }
            let screen = kept.remove(at: index).screen
            return try afterward(call) {
                try call.answer(
                    try TerminalLoan.run(screen, on: runsOnLentTerminal ? call.descriptors : [], lent: lent, runtime: runtime))
            }
        default:
            return nil
        }
    }

    /// Runs `body`, then keeps each screen it presented and tells the process that called —
    /// when it throws too, so that none stays behind to open over this process's next screen.
    func afterward<Answer>(_ call: RouteCallReader, _ body: () throws -> Answer) rethrows -> Answer {
        let mark = runtime.navigator.pendingCount
        defer { relay(runtime.navigator.takePresented(since: mark), to: call) }
        return try body()
    }

    private func relay(_ screens: [any Screen], to call: RouteCallReader) {
        // Those kept for a process that ended go with it, not after 64 newer ones.
        kept.removeAll { !$0.isLive }
        for screen in screens {
            nextToken += 1
            kept.append(Kept(link: call.link, token: nextToken, screen: screen))
            if kept.count > Self.keptLimit { kept.removeFirst() }
            var arguments = RouteArguments()
            arguments.value(nextToken)
            do throws(RouteCallError) {
                try RemoteObject.route(Self.route, on: call.link).call("present", arguments)
            } catch {
                call.link.report(error, calling: "\(Self.route).present")
            }
        }
    }

    struct RelayRefusal: Error, CustomStringConvertible {
        let why: String
        var description: String { why }
    }

    /// A route's dispatcher whose main-actor calls relay what they present.
    private struct Relaying: RouteDispatching {
        let inner: any RouteDispatching
        let relay: ScreenRelay

        func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
            try inner.dispatch(member, call)
        }

        @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
            try relay.afterward(call) { try inner.dispatchOnMainActor(member, call) }
        }
    }
}

/// The stand-in of a screen the other process presented and keeps: shown, it lends that
/// process the terminal until the person leaves the screen (and all it leads to).
@MainActor
final class RelayedScreen: Screen {
    let token: UInt64
    let peer: RemoteObject
    let runtime: HostRuntime

    init(token: UInt64, peer: RemoteObject, runtime: HostRuntime) {
        self.token = token
        self.peer = peer
        self.runtime = runtime
    }

    func show(_ ui: TerminalUI) -> Navigation {
        TerminalLoan.lend(ui, strings: runtime.strings) { lent throws(RouteCallError) in
            var arguments = RouteArguments()
            arguments.value(token)
            arguments.value(lent)
            arguments.pass([0, 1, 2])
            return try peer.call("show", arguments, returning: LentTerminalEnd.self, waiting: .forTheAnswer)
        }
    }
}
