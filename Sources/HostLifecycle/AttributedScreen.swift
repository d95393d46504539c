import HostLoading
import ModuleKit

/// A module's screen, shown under the guard: a crash or `exit()` while it runs is named as
/// that module's. The screens it leads to (push, replace) are attributed to it too.
package final class AttributedScreen: Screen {
    let module: String
    let screen: any Screen
    let runtime: HostRuntime

    private init(module: String, screen: any Screen, runtime: HostRuntime) {
        self.module = module
        self.screen = screen
        self.runtime = runtime
    }

    /// `screen` attributed to `module`, unless it already is.
    static func wrap(_ screen: any Screen, module: String, runtime: HostRuntime) -> any Screen {
        screen is AttributedScreen ? screen : AttributedScreen(module: module, screen: screen, runtime: runtime)
    }

    /// The module's own title, asked under the guard as its screen is.
    package var title: String? { runtime.guarded(module, .screen) { screen.title } }

    package func show(_ ui: TerminalUI) -> Navigation {
        let next = runtime.guarded(module, .screen) { screen.show(ui) }
        switch next {
        case .push(let screen): return .push(Self.wrap(screen, module: module, runtime: runtime))
        case .replace(let screen): return .replace(Self.wrap(screen, module: module, runtime: runtime))
        case .replaceRoot, .pop, .stay, .quit: return next
        @unknown default: return next
        }
    }
}
