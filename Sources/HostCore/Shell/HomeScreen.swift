import Contracts
import ModuleKit

/// The app's main menu: the entries active modules contribute, then log out (with Auth) and
/// quit. A disabled module's entry is simply absent.
final class HomeScreen: Screen {
    let runtime: HostRuntime
    let auth: (any AuthRoute)?

    init(runtime: HostRuntime, auth: (any AuthRoute)?) {
        self.runtime = runtime
        self.auth = auth
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = runtime.strings
        // Asked each time, so entries follow the current locale.
        let entries = runtime.homeEntries
        var options = entries.map(\.title)
        let user = auth?.currentUser
        if let user { ui.print(strings.format(.homeGreeting, "\(user.name) <\(user.email)>")) }
        if entries.isEmpty { ui.print(strings[.homeEmpty]) }
        if user != nil { options.append(strings[.homeLogOut]) }
        options.append(strings[.quit])
        guard let choice = ui.menu(strings[.homeTitle], options) else { return .quit }
        if choice < entries.count { return .push(entries[choice].open()) }
        if user != nil, choice == entries.count {
            ui.confirm(strings[.homeLogOutTitle], strings[.homeLogOutMessage]) {
                do {
                    try auth?.logOut()
                } catch {
                    ui.error(strings.format(.appError, "\(error)"))
                }
            }
            return .stay
        }
        return .quit
    }
}
