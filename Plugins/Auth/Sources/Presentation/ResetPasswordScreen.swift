import ModuleKit

/// Request a token (written to the outbox), or set a new password with one.
final class ResetPasswordScreen: Screen {
    let service: AuthService
    let strings: ModuleStrings

    init(service: AuthService, strings: ModuleStrings) {
        self.service = service
        self.strings = strings
    }

    func show(_ ui: TerminalUI) -> Navigation {
        switch ui.menu(strings[.resetTitle], [strings[.resetRequest], strings[.resetConfirm]]) {
        case .item(0): return request(ui)
        case .item(_): return confirm(ui)
        case .shortcut, .back: return .pop
        case .quit: return .quit
        @unknown default: return .pop
        }
    }

    private func request(_ ui: TerminalUI) -> Navigation {
        guard let email = ui.ask(strings[.fieldEmail]) else { return .quit }
        guard !email.trimmingSpaces().isEmpty else { return .stay }
        do {
            try service.requestReset(email: email)
            ui.success(strings.format(.resetRequested, CredentialsPolicy.normalizedEmail(email), service.outbox.path))
        } catch {
            ui.error(error.message(strings))
        }
        return .stay
    }

    private func confirm(_ ui: TerminalUI) -> Navigation {
        let form = Form(
            title: strings[.resetTitle], hint: strings[.loginHint],
            fields: [
                .init(key: "token", label: strings[.fieldToken], isSecret: true),
                AccountFormScreen.newPasswordField(strings, label: .fieldNewPassword), AccountFormScreen.confirmationField(strings),
            ])
        switch ui.fill(form) {
        case .endOfInput: return .quit
        case .cancelled: return .stay
        case .submitted(let values):
            do {
                _ = try service.confirmReset(
                    token: values["token", default: ""], password: values["password", default: ""],
                    confirmation: values["confirmation", default: ""])
                ui.success(strings[.resetDone])
                return .pop
            } catch {
                ui.error(error.message(strings))
                return .stay
            }
        @unknown default: return .stay
        }
    }
}
