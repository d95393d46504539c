import ModuleKit

/// Auth's string keys; the texts are in Resources/Strings.
extension StringKey {
    static let fieldEmail: StringKey = "field.email"
    static let fieldName: StringKey = "field.name"
    static let fieldPassword: StringKey = "field.password"
    static let fieldConfirmation: StringKey = "field.confirmation"
    static let fieldCurrentPassword: StringKey = "field.password.current"
    static let fieldNewPassword: StringKey = "field.password.new"
    static let fieldToken: StringKey = "field.token"

    static let errorMissing: StringKey = "error.input.missing"
    static let errorTooLong: StringKey = "error.input.too.long"
    static let errorInvalidEmail: StringKey = "error.email.invalid"
    static let errorPasswordMismatch: StringKey = "error.password.mismatch"
    static let errorWeakPassword: StringKey = "error.password.weak"
    static let errorEmailTaken: StringKey = "error.email.taken"
    static let errorWrongCredentials: StringKey = "error.credentials.wrong"
    static let errorThrottled: StringKey = "error.throttled"
    static let errorInvalidToken: StringKey = "error.token.invalid"
    static let errorExpiredToken: StringKey = "error.token.expired"
    static let errorNotLoggedIn: StringKey = "error.not.logged.in"
    static let errorStorage: StringKey = "error.storage"
    static let errorNeedsTerminal: StringKey = "error.needs.terminal"
    static let errorNeedsTerminalToken: StringKey = "error.needs.terminal.token"
    static let errorTokenOption: StringKey = "error.token.option"

    static let loginTitle: StringKey = "login.title"
    static let loginHint: StringKey = "form.hint.back"
    static let rulePassword: StringKey = "rule.password"
    static let ruleEmail: StringKey = "rule.email"
    static let loginSuccess: StringKey = "login.success"
    static let loginCancelled: StringKey = "login.cancelled"
    static let registerCancelled: StringKey = "register.cancelled"
    static let registerTitle: StringKey = "register.title"
    static let registerSuccess: StringKey = "register.success"
    static let resetTitle: StringKey = "reset.title"
    static let resetRequest: StringKey = "reset.request"
    static let resetConfirm: StringKey = "reset.confirm"
    static let resetRequested: StringKey = "reset.requested"
    static let resetDone: StringKey = "reset.done"
    static let resetMailSubject: StringKey = "reset.mail.subject"
    static let resetMailBody: StringKey = "reset.mail.body"
    static let logoutDone: StringKey = "logout.done"
    static let logoutNobody: StringKey = "logout.nobody"
    static let whoamiNobody: StringKey = "whoami.nobody"
    static let passwdTitle: StringKey = "passwd.title"
    static let passwdDone: StringKey = "passwd.done"
    static let cmdRegisterSummary: StringKey = "command.register"
    static let optEmail: StringKey = "option.email"
    static let optName: StringKey = "option.name"
    static let optStdin2: StringKey = "option.stdin2"
    static let cmdLoginSummary: StringKey = "command.login"
    static let optStdin1: StringKey = "option.stdin1"
    static let cmdLogoutSummary: StringKey = "command.logout"
    static let cmdWhoamiSummary: StringKey = "command.whoami"
    static let optJson: StringKey = "option.json"
    static let cmdResetSummary: StringKey = "command.reset"
    static let optResetemail: StringKey = "option.resetemail"
    static let optToken: StringKey = "option.token"
    static let cmdPasswdSummary: StringKey = "command.passwd"
    static let optStdin3: StringKey = "option.stdin3"
    static let usageResetBoth: StringKey = "usage.reset.both"
}

extension ModuleStrings {
    /// `key` formatted with a person's name, without a second period when the name already
    /// ends in one ("Welcome back, Ann E.", not "Ann E..").
    func sentence(_ key: StringKey, name: String) -> String {
        let text = format(key, name)
        return name.hasSuffix(".") && text.hasSuffix(name + ".") ? String(text.dropLast()) : text
    }
}
