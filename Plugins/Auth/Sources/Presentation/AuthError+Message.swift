import ModuleKit

extension AuthError {
    /// The message a person reads, in the current locale.
    public func message(_ strings: ModuleStrings) -> String {
        switch self {
        case .inputMissing(let field): strings.format(.errorMissing, strings[field.label])
        case .inputTooLong(let field, let limit): strings.format(.errorTooLong, strings[field.label], "\(limit)")
        case .invalidEmail: strings[.errorInvalidEmail]
        case .passwordMismatch: strings[.errorPasswordMismatch]
        case .weakPassword: strings.format(.errorWeakPassword, "\(CredentialsPolicy.minimumPasswordLength)")
        case .emailTaken: strings[.errorEmailTaken]
        case .wrongCredentials: strings[.errorWrongCredentials]
        case .throttled(let seconds): Self.minutes(seconds, strings)
        case .invalidToken: strings[.errorInvalidToken]
        case .expiredToken: strings[.errorExpiredToken]
        case .notLoggedIn: strings[.errorNotLoggedIn]
        case .storage(let message): strings.format(.errorStorage, message)
        }
    }
}

extension AuthError {
    /// "Try again in N minutes", whole minutes rounded up, in the language's plural form.
    static func minutes(_ seconds: Int, _ strings: ModuleStrings) -> String {
        let minutes = max(1, (seconds + 59) / 60)
        return strings.plural(.errorThrottled, count: minutes, "\(minutes)")
    }
}

extension AuthField {
    /// The field's label in the forms.
    var label: StringKey {
        switch self {
        case .email: .fieldEmail
        case .name: .fieldName
        case .password: .fieldPassword
        case .confirmation: .fieldConfirmation
        case .currentPassword: .fieldCurrentPassword
        case .token: .fieldToken
        }
    }
}
