import Contracts
import ModuleKit

/// A form that ends in a logged-in user — log in, register: a refusal is shown on the form
/// and asked again; going back or a success pops and calls `completion`.
final class AccountFormScreen: Screen {
    /// The form; after a refusal, holding what was given (the email stays, the password not).
    private(set) var form: Form
    let strings: ModuleStrings
    let submit: ([String: String]) throws(AuthError) -> AuthUser
    let success: StringKey
    /// The line said when the person leaves a field empty (the form is cancelled).
    let cancelled: StringKey
    let completion: @MainActor (AuthUser?) -> Void

    init(
        form: Form, strings: ModuleStrings, success: StringKey, cancelled: StringKey,
        submit: @escaping ([String: String]) throws(AuthError) -> AuthUser,
        completion: @escaping @MainActor (AuthUser?) -> Void
    ) {
        self.form = form
        self.strings = strings
        self.success = success
        self.cancelled = cancelled
        self.submit = submit
        self.completion = completion
    }

    func show(_ ui: TerminalUI) -> Navigation {
        switch ui.fill(form) {
        case .endOfInput:
            completion(nil)
            return .quit
        case .cancelled:
            // A cancel says so too: every action and every cancel ends with one line.
            ui.notice(strings[cancelled])
            completion(nil)
            return .pop
        case .submitted(let values):
            do {
                let user = try submit(values)
                ui.success(strings.sentence(success, name: user.name))
                completion(user)
                return .pop
            } catch {
                ui.error(error.message(strings))
                form = form.holding(values)
                return .stay
            }
        @unknown default:
            completion(nil)
            return .pop
        }
    }

    /// Email and password (hidden on a TTY).
    static func logIn(service: AuthService, strings: ModuleStrings, completion: @escaping @MainActor (AuthUser?) -> Void)
        -> AccountFormScreen
    {
        let form = Form(
            title: strings[.loginTitle], hint: strings[.loginHint],
            fields: [
                .init(key: "email", label: strings[.fieldEmail]), .init(key: "password", label: strings[.fieldPassword], isSecret: true),
            ])
        return AccountFormScreen(
            form: form, strings: strings, success: .loginSuccess, cancelled: .loginCancelled,
            submit: { values throws(AuthError) in
                try service.logIn(email: values["email", default: ""], password: values["password", default: ""])
            },
            completion: completion)
    }

    /// Email, display name, password and confirmation, each checked as it is entered, with the
    /// rules in the prompts; every problem a localized message (a missing or too long field,
    /// a malformed email, a mismatch, a weak password, an email already registered).
    static func register(service: AuthService, strings: ModuleStrings, completion: @escaping @MainActor (AuthUser?) -> Void)
        -> AccountFormScreen
    {
        let form = Form(
            title: strings[.registerTitle], hint: strings[.loginHint],
            fields: [
                .init(
                    key: "email", label: strings[.fieldEmail], rule: strings[.ruleEmail],
                    check: { value, _ in
                        // A taken email is said here, not after both passwords.
                        CredentialsPolicy.checkEmail(value)?.message(strings)
                            ?? (MainActor.assumeIsolated { service.isRegistered(email: value) }
                                ? AuthError.emailTaken.message(strings) : nil)
                    }),
                .init(key: "name", label: strings[.fieldName], check: { value, _ in CredentialsPolicy.checkName(value)?.message(strings) }),
                newPasswordField(strings, label: .fieldPassword), confirmationField(strings),
            ],
            validate: { values in
                let problem = CredentialsPolicy.validateRegistration(
                    email: CredentialsPolicy.normalizedEmail(values["email", default: ""]), name: values["name", default: ""],
                    password: values["password", default: ""], confirmation: values["confirmation", default: ""])
                return problem.map { [$0.message(strings)] } ?? []
            })
        return AccountFormScreen(
            form: form, strings: strings, success: .registerSuccess, cancelled: .registerCancelled,
            submit: { values throws(AuthError) in
                try service.register(
                    email: values["email", default: ""], name: values["name", default: ""],
                    password: values["password", default: ""], confirmation: values["confirmation", default: ""])
            },
            completion: completion)
    }

    /// A new password, with the strength rule in its prompt, checked as it is entered.
    static func newPasswordField(_ strings: ModuleStrings, label: StringKey) -> Form.Field {
        .init(
            key: "password", label: strings[label], isSecret: true,
            rule: strings.format(.rulePassword, "\(CredentialsPolicy.minimumPasswordLength)"),
            check: { value, _ in CredentialsPolicy.checkNewPassword(value)?.message(strings) })
    }

    /// The confirmation, checked against the password entered just before it.
    static func confirmationField(_ strings: ModuleStrings) -> Form.Field {
        .init(
            key: "confirmation", label: strings[.fieldConfirmation], isSecret: true,
            check: { value, earlier in CredentialsPolicy.checkConfirmation(value, of: earlier["password", default: ""])?.message(strings) })
    }
}
