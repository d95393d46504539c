import Contracts
import ModuleKit

/// Email and password (hidden on a TTY); a refusal is shown on the form and asked again.
final class LoginScreen: Screen {
    let service: AuthService
    let strings: ModuleStrings
    let completion: @Sendable (AuthUser?) -> Void

    init(service: AuthService, strings: ModuleStrings, completion: @escaping @Sendable (AuthUser?) -> Void) {
        self.service = service
        self.strings = strings
        self.completion = completion
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let form = Form(
            title: strings[.loginTitle], hint: strings[.loginHint],
            fields: [
                .init(key: "email", label: strings[.fieldEmail]), .init(key: "password", label: strings[.fieldPassword], isSecret: true),
            ])
        switch ui.fill(form) {
        case .endOfInput:
            completion(nil)
            return .quit
        case .cancelled:
            completion(nil)
            return .pop
        case .submitted(let values):
            do {
                let user = try service.logIn(email: values["email", default: ""], password: values["password", default: ""])
                ui.success(strings.format(.loginSuccess, user.name))
                completion(user)
                return .pop
            } catch {
                ui.error(error.message(strings))
                return .stay
            }
        }
    }
}
