import Contracts
import ModuleKit

/// Email, display name, password and confirmation; each problem is a localized message on
/// the form (seed 000's `InputError`, plus weak password and email already registered).
final class RegisterScreen: Screen {
    let service: AuthService
    let strings: ModuleStrings
    let completion: @Sendable (AuthUser?) -> Void

    init(service: AuthService, strings: ModuleStrings, completion: @escaping @Sendable (AuthUser?) -> Void) {
        self.service = service
        self.strings = strings
        self.completion = completion
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = self.strings
        let form = Form(
            title: strings[.registerTitle], hint: strings[.loginHint],
            fields: [
                .init(key: "email", label: strings[.fieldEmail]), .init(key: "name", label: strings[.fieldName]),
                .init(key: "password", label: strings[.fieldPassword], isSecret: true),
                .init(key: "confirmation", label: strings[.fieldConfirmation], isSecret: true),
            ],
            validate: { values in
                let problem = CredentialsPolicy.validateRegistration(
                    email: CredentialsPolicy.normalizedEmail(values["email", default: ""]), name: values["name", default: ""],
                    password: values["password", default: ""], confirmation: values["confirmation", default: ""])
                return problem.map { [$0.message(strings)] } ?? []
            })
        switch ui.fill(form) {
        case .endOfInput:
            completion(nil)
            return .quit
        case .cancelled:
            completion(nil)
            return .pop
        case .submitted(let values):
            do {
                let user = try service.register(
                    email: values["email", default: ""], name: values["name", default: ""],
                    password: values["password", default: ""], confirmation: values["confirmation", default: ""])
                ui.success(strings.format(.registerSuccess, user.name))
                completion(user)
                return .pop
            } catch {
                ui.error(error.message(strings))
                return .stay
            }
        }
    }
}
