import Contracts
import HostLifecycle
import ModuleKit

/// The app's main menu: the entries active modules contribute, each under a number that does
/// not change when other modules are turned on or off; `l` logs out (with Auth), `q` quits.
/// A disabled module's entry is simply absent.
final class HomeScreen: Screen {
    let runtime: HostRuntime
    let auth: (any AuthRoute)?
    /// Who the greeting last named: it is shown when that changes, not on every return.
    private var greeted: AuthUser?

    init(runtime: HostRuntime, auth: (any AuthRoute)?) {
        self.runtime = runtime
        self.auth = auth
    }

    /// Home in the language in force (the breadcrumb asks while Settings shows).
    var title: String? { runtime.strings[.homeTitle] }

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = runtime.strings
        // Asked each time, so entries follow the current locale.
        let entries = runtime.homeEntries
        let user = auth?.currentUser
        if let user, user != greeted { ui.print(strings.format(.homeGreeting, "\(user.name) <\(user.email)>")) }
        greeted = user
        let logOut = MenuShortcut(key: "l", label: strings[.homeLogOut])
        switch ui.menu(
            strings[.homeTitle], entries.map(\.entry.title), details: entries.isEmpty ? [strings[.homeEmpty]] : [],
            numbers: entries.map(\.number), canGoBack: false, shortcuts: user == nil ? [] : [logOut])
        {
        case .item(let index): return .push(entries[index].entry.open())
        case .shortcut:
            let confirmed = ui.confirm(strings[.homeLogOutTitle], strings[.homeLogOutMessage]) {
                do {
                    try auth?.logOut()
                    ui.success(strings[.homeLoggedOut])
                } catch {
                    ui.error(strings.format(.appError, "\(error)"))
                }
            }
            // A cancel says so too: every action and every cancel ends with one line.
            if !confirmed { ui.notice(strings[.homeStillLoggedIn]) }
            return .stay
        case .back, .quit: return .quit
        @unknown default: return .stay
        }
    }
}
