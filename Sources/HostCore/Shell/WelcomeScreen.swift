import Contracts
import ModuleKit

/// Shown while Auth is active and nobody is logged in: log in, register, reset, quit.
/// Logging in switches the app to Home through the shell's observation of Auth.
final class WelcomeScreen: Screen {
    let strings: ModuleStrings
    let auth: (any AuthRoute)?

    init(strings: ModuleStrings, auth: (any AuthRoute)?) {
        self.strings = strings
        self.auth = auth
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let options = [strings[.welcomeLogIn], strings[.welcomeRegister], strings[.welcomeReset], strings[.quit]]
        guard let auth, let choice = ui.menu(strings[.welcomeTitle], options) else { return .quit }
        switch choice {
        case 0: auth.presentLogIn { _ in }
        case 1: auth.presentRegistration { _ in }
        case 2: auth.presentPasswordReset()
        default: return .quit
        }
        return .stay
    }
}
