import ModuleKit

/// Why an Auth operation was refused (seed 000's `InputError`, and the rest). Each case has a
/// localized message; none says whether an email is registered, except registration itself.
public enum AuthError: Error, Equatable, Sendable {
    /// A required field is empty; carries the field's string key.
    case inputMissing(field: StringKey)
    /// A field is longer than allowed; carries the field and the limit.
    case inputTooLong(field: StringKey, limit: Int)
    case invalidEmail
    case passwordMismatch
    case weakPassword
    case emailTaken
    /// Wrong email or wrong password: one message for both.
    case wrongCredentials
    /// Too many failures for this account; try again after `seconds`.
    case throttled(seconds: Int)
    case invalidToken
    case expiredToken
    case notLoggedIn
    /// Storage failed; the message carries SQLite's words.
    case storage(String)

    /// The message a person reads, in the current locale.
    public func message(_ strings: ModuleStrings) -> String {
        switch self {
        case .inputMissing(let field): strings.format(.errorMissing, strings[field])
        case .inputTooLong(let field, let limit): strings.format(.errorTooLong, strings[field], "\(limit)")
        case .invalidEmail: strings[.errorInvalidEmail]
        case .passwordMismatch: strings[.errorPasswordMismatch]
        case .weakPassword: strings.format(.errorWeakPassword, "\(CredentialsPolicy.minimumPasswordLength)")
        case .emailTaken: strings[.errorEmailTaken]
        case .wrongCredentials: strings[.errorWrongCredentials]
        case .throttled(let seconds): strings.format(.errorThrottled, "\(max(1, (seconds + 59) / 60))")
        case .invalidToken: strings[.errorInvalidToken]
        case .expiredToken: strings[.errorExpiredToken]
        case .notLoggedIn: strings[.errorNotLoggedIn]
        case .storage(let message): strings.format(.errorStorage, message)
        }
    }
}
