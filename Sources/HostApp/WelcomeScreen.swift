import Contracts
import ModuleKit

/// Shown while Auth is active and nobody is logged in: log in, register, reset; `q` quits.
/// Logging in switches the app to Home through the shell's observation of Auth.
final class WelcomeScreen: Screen {
    let strings: ModuleStrings
    let auth: (any AuthRoute)?

    init(strings: ModuleStrings, auth: (any AuthRoute)?) {
        self.strings = strings
        self.auth = auth
    }

    func show(_ ui: TerminalUI) -> Navigation {
        guard let auth else { return .quit }
        let items = [strings[.welcomeLogIn], strings[.welcomeRegister], strings[.welcomeReset]]
        switch ui.menu(strings[.welcomeTitle], items, canGoBack: false) {
        case .item(0): auth.presentLogIn { _ in }
        case .item(1): auth.presentRegistration { _ in }
        case .item(_): auth.presentPasswordReset()
        case .shortcut, .back, .quit: return .quit
        @unknown default: return .quit
        }
        return .stay
    }
}
