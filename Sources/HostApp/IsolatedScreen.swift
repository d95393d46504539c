import HostIsolation
import HostLifecycle
@_spi(Host) import ModuleKit

/// A Home entry of a module in a process of its own: choosing it hands the terminal to that
/// process, which runs the entry's screens until the person leaves them, while the app waits;
/// then Home again. Full screen when the app is (the app steps out of the mode while the
/// module's process holds it, and takes it back after). A quit there quits the app.
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
        let fullScreen = FullScreenMode.isActive
        if fullScreen { FullScreenMode.leave(ui) }
        var failure: String?
        var quit = false
        do throws(RouteCallError) {
            quit = try module.showScreen(index, fullScreen: fullScreen)
        } catch {
            failure = "\(error)"
        }
        if quit { return .quit }
        if fullScreen { _ = FullScreenMode.enter(ui, strings: runtime.strings) }
        // Said where the person looks: above the next screen.
        if let failure { ui.error(failure) }
        return .pop
    }

    /// Makes these screens for `runtime`'s isolated modules.
    static func install(in runtime: HostRuntime) {
        runtime.isolatedScreens.withLock { maker in
            maker = IsolatedScreenMaker { module, index in IsolatedScreen(module: module, index: index, runtime: runtime) }
        }
    }
}
