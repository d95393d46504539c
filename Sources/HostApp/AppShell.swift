import Contracts
import HostLifecycle
import HostProcesses
import ModuleKit

/// The app's root: picks the first screen from the app's state — Welcome
/// while Auth is active and nobody is logged in, else Home — and switches between them when
/// someone logs in or out.
@MainActor
package final class AppShell {
    let runtime: HostRuntime
    let auth: (any AuthRoute)?

    package init(runtime: HostRuntime) {
        self.runtime = runtime
        auth = runtime.resolver.ifAvailable((any AuthRoute).self)
    }

    /// Runs the app until the person quits or input ends.
    package func run() {
        let (runtime, auth) = (self.runtime, self.auth)
        IsolatedScreen.install(in: runtime)
        // A module in a process of its own whose library is replaced runs the new one at once.
        let watcher = runtime.watchIsolatedLibraries()
        defer { watcher?.stop() }
        let navigator = runtime.navigator
        // Back to Welcome or Home when someone logs in or out, not when the same person
        // renames themselves (that person stays where they are, in Settings).
        var shown = auth?.currentUser?.email
        let observation = auth?.observe { user in
            guard user?.email != shown else { return }
            shown = user?.email
            navigator.requestRoot(user == nil ? Self.welcome(runtime, auth) : Self.home(runtime, auth))
        }
        defer { observation?.cancel() }
        navigator.run(root: auth != nil && auth?.currentUser == nil ? Self.welcome(runtime, auth) : Self.home(runtime, auth))
        FullScreenMode.leave(navigator.ui)
        navigator.ui.print(runtime.strings[.goodbye])
    }

    static func welcome(_ runtime: HostRuntime, _ auth: (any AuthRoute)?) -> any Screen {
        WelcomeScreen(strings: runtime.strings, auth: auth)
    }

    static func home(_ runtime: HostRuntime, _ auth: (any AuthRoute)?) -> any Screen {
        HomeScreen(runtime: runtime, auth: auth)
    }
}

/// The app's string keys; the texts are in the host's strings (HostModel).
extension StringKey {
    static let welcomeTitle: StringKey = "welcome.title"
    static let welcomeLogIn: StringKey = "welcome.login"
    static let welcomeRegister: StringKey = "welcome.register"
    static let welcomeReset: StringKey = "welcome.reset"
    static let quit: StringKey = "app.quit"
    static let goodbye: StringKey = "app.goodbye"
    static let homeTitle: StringKey = "home.title"
    /// The host's strings its screens are titled with: what a lent terminal's breadcrumb says
    /// again in the language chosen in the borrowing process.
    static let titleKeys: [StringKey] = [homeTitle]
    static let homeGreeting: StringKey = "home.greeting"
    static let homeLogOut: StringKey = "home.logout"
    static let homeLoggedOut: StringKey = "home.loggedout"
    static let homeStillLoggedIn: StringKey = "home.logout.kept"
    static let homeLogOutTitle: StringKey = "home.logout.confirm.title"
    static let homeLogOutMessage: StringKey = "home.logout.confirm.message"
    static let homeEmpty: StringKey = "home.empty"
    static let appError: StringKey = "app.error"
}
