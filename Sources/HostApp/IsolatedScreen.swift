import HostIsolation
import HostLifecycle
@_spi(Host) import ModuleKit
import Synchronization

/// A Home entry of a module in a process of its own: choosing it lends the terminal to that
/// process (``TerminalLoan``), which runs the entry's screens until the person leaves them,
/// while the app waits; then Home again. Full screen when the app is. A quit there quits the app.
@MainActor
final class IsolatedScreen: Screen {
    let module: IsolatedModule
    let index: Int
    let runtime: HostRuntime

    init(module: IsolatedModule, index: Int, runtime: HostRuntime) {
        self.module = module
        self.index = index
        self.runtime = runtime
    }

    func show(_ ui: TerminalUI) -> Navigation {
        TerminalLoan.lend(ui, strings: runtime.strings) { lent throws(RouteCallError) in
            try module.showScreen(index, on: lent)
        }
    }

    /// Makes these screens for `runtime`'s isolated modules, and relays the screens their
    /// routes present (``ScreenRelay``).
    static func install(in runtime: HostRuntime) {
        let relay = ScreenRelay(runtime: runtime, runsOnLentTerminal: false)
        runtime.isolatedScreens.withLock { maker in
            maker = IsolatedScreenMaker(relay: relay) { module, index in IsolatedScreen(module: module, index: index, runtime: runtime) }
        }
    }
}
