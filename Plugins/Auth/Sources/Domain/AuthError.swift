/// Why an Auth operation was refused: a field's problem, or the account's. Presentation
/// words each case (`AuthError+Message.swift`); none says whether an email is registered,
/// except registration itself.
public enum AuthError: Error, Equatable, Sendable {
    /// A required field is empty.
    case inputMissing(field: AuthField)
    /// A field is longer than allowed; carries the field and the limit.
    case inputTooLong(field: AuthField, limit: Int)
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
}

/// A field of Auth's forms, as the domain names it (Presentation words it).
public enum AuthField: Sendable, Equatable {
    case email, name, password, confirmation, currentPassword, token
}
