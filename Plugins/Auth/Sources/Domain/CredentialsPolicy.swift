import FoundationEssentials

/// What makes an email, a name and a password acceptable.
public enum CredentialsPolicy {
    public static let minimumPasswordLength = 8
    public static let maximumPasswordLength = 1_024
    public static let maximumEmailLength = 254
    public static let maximumNameLength = 100

    /// The email trimmed and lowercased, so one address is one account.
    public static func normalizedEmail(_ email: String) -> String {
        email.trimmingSpaces().lowercased()
    }

    /// `local@domain.tld`: one `@`, no spaces or control characters, a dot in the domain with
    /// something on each side.
    public static func isValidEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].count >= 3 else { return false }
        guard email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && $0 != "\u{FFFD}" }) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// At least ``minimumPasswordLength`` characters, with a letter and something that is not
    /// a letter.
    public static func isStrongPassword(_ password: String) -> Bool {
        password.count >= minimumPasswordLength && password.contains(where: \.isLetter) && password.contains(where: { !$0.isLetter })
    }

    // MARK: Each field on its own, as a form asks it

    /// An email as typed: too long or not an address.
    public static func checkEmail(_ email: String) -> AuthError? {
        let normalized = normalizedEmail(email)
        if normalized.count > maximumEmailLength { return .inputTooLong(field: .email, limit: maximumEmailLength) }
        return isValidEmail(normalized) ? nil : .invalidEmail
    }

    /// A display name: too long.
    public static func checkName(_ name: String) -> AuthError? {
        name.count > maximumNameLength ? .inputTooLong(field: .name, limit: maximumNameLength) : nil
    }

    /// A new password on its own: too long or too weak.
    public static func checkNewPassword(_ password: String) -> AuthError? {
        if password.count > maximumPasswordLength { return .inputTooLong(field: .password, limit: maximumPasswordLength) }
        return isStrongPassword(password) ? nil : .weakPassword
    }

    /// A confirmation against the password entered before it.
    public static func checkConfirmation(_ confirmation: String, of password: String) -> AuthError? {
        confirmation == password ? nil : .passwordMismatch
    }

    // MARK: Whole forms

    /// Checks a registration's fields in this order: missing, too long, email, mismatch,
    /// strength.
    public static func validateRegistration(email: String, name: String, password: String, confirmation: String) -> AuthError? {
        if email.isEmpty { return .inputMissing(field: .email) }
        if name.trimmingSpaces().isEmpty { return .inputMissing(field: .name) }
        if password.isEmpty { return .inputMissing(field: .password) }
        if confirmation.isEmpty { return .inputMissing(field: .confirmation) }
        if email.count > maximumEmailLength { return .inputTooLong(field: .email, limit: maximumEmailLength) }
        if name.count > maximumNameLength { return .inputTooLong(field: .name, limit: maximumNameLength) }
        if password.count > maximumPasswordLength { return .inputTooLong(field: .password, limit: maximumPasswordLength) }
        if !isValidEmail(email) { return .invalidEmail }
        return validateNewPassword(password, confirmation: confirmation)
    }

    /// Checks a new password and its confirmation.
    public static func validateNewPassword(_ password: String, confirmation: String) -> AuthError? {
        if password.isEmpty { return .inputMissing(field: .password) }
        if confirmation.isEmpty { return .inputMissing(field: .confirmation) }
        if password.count > maximumPasswordLength { return .inputTooLong(field: .password, limit: maximumPasswordLength) }
        if password != confirmation { return .passwordMismatch }
        if !isStrongPassword(password) { return .weakPassword }
        return nil
    }
}
