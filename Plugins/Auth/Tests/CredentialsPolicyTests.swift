import ModuleKit
import Testing

@testable import AuthFeature

@Suite struct CredentialsPolicyTests {
    @Test(arguments: [
        ("", "Ann", "secret12!", "secret12!", AuthError.inputMissing(field: .email)),
        ("a@b.co", " ", "secret12!", "secret12!", .inputMissing(field: .name)),
        ("a@b.co", "Ann", "", "secret12!", .inputMissing(field: .password)),
        ("a@b.co", "Ann", "secret12!", "", .inputMissing(field: .confirmation)),
        ("not-an-email", "Ann", "secret12!", "secret12!", .invalidEmail),
        ("a@b", "Ann", "secret12!", "secret12!", .invalidEmail),
        ("a b@c.de", "Ann", "secret12!", "secret12!", .invalidEmail),
        ("a@@c.de", "Ann", "secret12!", "secret12!", .invalidEmail),
        ("a@b.co", "Ann", "secret12!", "secret12?", .passwordMismatch),
        ("a@b.co", "Ann", "short1!", "short1!", .weakPassword),
        ("a@b.co", "Ann", "lettersonly", "lettersonly", .weakPassword),
        ("a@b.co", "Ann", "12345678", "12345678", .weakPassword),
        (String(repeating: "a", count: 250) + "@b.co", "Ann", "secret12!", "secret12!", .inputTooLong(field: .email, limit: 254)),
        ("a@b.co", String(repeating: "n", count: 101), "secret12!", "secret12!", .inputTooLong(field: .name, limit: 100)),
    ])
    func refusesEachInputErrorWithItsReason(email: String, name: String, password: String, confirmation: String, expected: AuthError) {
        #expect(
            CredentialsPolicy.validateRegistration(email: email, name: name, password: password, confirmation: confirmation) == expected)
    }

    @Test func acceptsAGoodRegistration() {
        #expect(
            CredentialsPolicy.validateRegistration(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
                == nil)
        #expect(CredentialsPolicy.normalizedEmail("  Ann@Example.COM ") == "ann@example.com")
    }

    @Test func messagesAreLocalized() throws {
        let english = try authStrings()
        let french = try authStrings(locale: "fr")
        #expect(AuthError.inputMissing(field: .email).message(english) == "Email is required.")
        #expect(AuthError.inputMissing(field: .email).message(french) == "E-mail est obligatoire.")
        #expect(AuthError.wrongCredentials.message(french) == "E-mail ou mot de passe incorrect.")
        #expect(AuthError.throttled(seconds: 61).message(english) == "Too many failed attempts. Try again in 2 minutes.")
        #expect(AuthError.throttled(seconds: 30).message(english) == "Too many failed attempts. Try again in 1 minute.")
        #expect(AuthError.throttled(seconds: 30).message(french) == "Trop de tentatives échouées. Réessayez dans 1 minute.")
    }
}

@Suite struct ThrottlePolicyTests {
    @Test(arguments: [(0, 0), (4, 0), (5, 30), (6, 60), (7, 120), (9, 480), (10, 900), (50, 900)])
    func locksLongerAfterEachFailure(failures: Int, seconds: Int) {
        #expect(ThrottlePolicy().lockSeconds(afterFailures: failures) == seconds)
    }
}
