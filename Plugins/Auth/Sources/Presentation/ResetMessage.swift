import ModuleKit

/// The password-reset message, worded in the person's language.
public enum ResetMessage {
    public static func wording(_ strings: ModuleStrings) -> @Sendable (String, String) -> (subject: String, body: String) {
        { name, token in (strings[.resetMailSubject], strings.format(.resetMailBody, name, token)) }
    }
}
