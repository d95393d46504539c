import Contracts
import FoundationEssentials
import ModuleKit
import Synchronization

/// Auth's use cases: register, log in and out, reset and change
/// passwords, throttle repeated failures, and tell observers who is logged in.
@MainActor
public final class AuthService {
    let store: AuthStore
    let hasher: PasswordHasher
    let policy: ThrottlePolicy
    let outbox: ResetOutbox
    /// The reset message's subject and body for an account's name and token (worded by
    /// Presentation, in the person's language).
    let resetMessage: @Sendable (_ name: String, _ token: String) -> (subject: String, body: String)
    let clock: @Sendable () -> Date
    /// Observers by a number of their own (a counter: a `UUID` would load Foundation's UUID
    /// code into every start, where the shell observes Auth at Welcome).
    private let observers = Mutex<(next: Int, all: [Int: @MainActor (AuthUser?) -> Void])>((0, [:]))
    /// A hash to check unknown emails against, made on first need (it costs one slow hash).
    private let decoy = Mutex<String?>(nil)

    /// How long a reset token stays valid.
    public static let resetTokenLifetime: TimeInterval = 3_600

    nonisolated public init(
        store: AuthStore, hasher: PasswordHasher, policy: ThrottlePolicy = ThrottlePolicy(), outbox: ResetOutbox,
        resetMessage: @escaping @Sendable (_ name: String, _ token: String) -> (subject: String, body: String),
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.hasher = hasher
        self.policy = policy
        self.outbox = outbox
        self.resetMessage = resetMessage
        self.clock = clock
    }

    private var now: Int64 { Int64(clock().timeIntervalSince1970) }

    // MARK: - Accounts

    /// Creates an account and logs it in.
    public func register(email rawEmail: String, name rawName: String, password: String, confirmation: String) throws(AuthError) -> AuthUser
    {
        let email = CredentialsPolicy.normalizedEmail(rawEmail)
        let name = rawName.trimmingSpaces()
        if let problem = CredentialsPolicy.validateRegistration(email: email, name: name, password: password, confirmation: confirmation) {
            throw problem
        }
        guard let hash = hasher.hash(password) else { throw AuthError.storage("the system refused to hash the password") }
        let account = try storage { try store.createAccount(email: email, name: name, passwordHash: hash, now: now) }
        notify(account.user)
        return account.user
    }

    /// Whether an account has `email` (as registration would store it): the register form
    /// says so at the email, before any password is typed. Registration says the same anyway.
    public func isRegistered(email rawEmail: String) -> Bool {
        let email = CredentialsPolicy.normalizedEmail(rawEmail)
        return (try? store.account(email: email)).flatMap { $0 } != nil
    }

    /// Logs in; a wrong email and a wrong password are the same error, and take the same time.
    public func logIn(email rawEmail: String, password: String) throws(AuthError) -> AuthUser {
        let email = CredentialsPolicy.normalizedEmail(rawEmail)
        if email.isEmpty { throw AuthError.inputMissing(field: .email) }
        if password.isEmpty { throw AuthError.inputMissing(field: .password) }
        if email.count > CredentialsPolicy.maximumEmailLength || password.count > CredentialsPolicy.maximumPasswordLength {
            throw AuthError.wrongCredentials
        }
        let account = try checkPassword(email: email, password: password)
        try storage { try store.setSession(userID: account.id, now: now) }
        notify(account.user)
        return account.user
    }

    public func logOut() throws(AuthError) {
        try storage { try store.clearSession() }
        notify(nil)
    }

    /// Who is logged in; `nil` when nobody is (or the database cannot be read).
    public func currentUser() -> AuthUser? {
        (try? store.currentAccount())?.user
    }

    public func updateDisplayName(_ rawName: String) throws(AuthError) {
        let name = rawName.trimmingSpaces()
        if name.isEmpty { throw AuthError.inputMissing(field: .name) }
        if name.count > CredentialsPolicy.maximumNameLength {
            throw AuthError.inputTooLong(field: .name, limit: CredentialsPolicy.maximumNameLength)
        }
        let account = try current()
        try storage { try store.updateName(userID: account.id, name: name) }
        notify(AuthUser(email: account.email, name: name))
    }

    /// Changes the logged-in user's password after checking the current one (throttled like
    /// a log in).
    public func changePassword(current: String, new: String, confirmation: String) throws(AuthError) {
        let account = try self.current()
        if current.isEmpty { throw AuthError.inputMissing(field: .currentPassword) }
        if let problem = CredentialsPolicy.validateNewPassword(new, confirmation: confirmation) { throw problem }
        _ = try checkPassword(email: account.email, password: current)
        guard let hash = hasher.hash(new) else { throw AuthError.storage("the system refused to hash the password") }
        try storage { try store.updatePasswordHash(userID: account.id, hash: hash) }
    }

    // MARK: - Reset

    /// Issues a single-use token for `email` and writes it to the outbox. Says nothing about
    /// whether the account exists: an unknown email gets no message, and no error.
    public func requestReset(email rawEmail: String) throws(AuthError) {
        let email = CredentialsPolicy.normalizedEmail(rawEmail)
        if email.isEmpty { throw AuthError.inputMissing(field: .email) }
        if email.count > CredentialsPolicy.maximumEmailLength || !CredentialsPolicy.isValidEmail(email) {
            throw AuthError.invalidEmail
        }
        try storage { try outbox.make() }
        guard let account = try storage({ try store.account(email: email) }) else { return }
        let token = Self.newToken()
        let date = clock()
        let message = resetMessage(account.name, token)
        try storage {
            try store.storeResetToken(
                digest: try SHA256.hex(of: Array(token.utf8)), userID: account.id,
                expiresAt: Int64(date.timeIntervalSince1970 + Self.resetTokenLifetime))
            try outbox.deliver(to: email, subject: message.subject, body: message.body, at: date)
        }
    }

    /// Sets a new password with a token from the outbox; the token then stops working.
    public func confirmReset(token rawToken: String, password: String, confirmation: String) throws(AuthError) -> AuthUser {
        let token = rawToken.trimmingSpaces().lowercased()
        if token.isEmpty { throw AuthError.inputMissing(field: .token) }
        if let problem = CredentialsPolicy.validateNewPassword(password, confirmation: confirmation) { throw problem }
        guard token.count == 32, token.allSatisfy(\.isHexDigit) else { throw AuthError.invalidToken }
        guard let hash = hasher.hash(password) else { throw AuthError.storage("the system refused to hash the password") }
        let account = try storage { try store.redeemResetToken(digest: try SHA256.hex(of: Array(token.utf8)), newHash: hash, now: now) }
        return account.user
    }

    /// 128 random bits from the kernel, as 32 hex digits.
    nonisolated static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    // MARK: - Observation

    public func observe(_ observer: @escaping @MainActor (AuthUser?) -> Void) -> Int {
        observers.withLock { observers in
            observers.next += 1
            observers.all[observers.next] = observer
            return observers.next
        }
    }

    nonisolated public func stopObserving(_ id: Int) {
        _ = observers.withLock { $0.all.removeValue(forKey: id) }
    }

    private func notify(_ user: AuthUser?) {
        for observer in observers.withLock({ Array($0.all.values) }) { observer(user) }
    }

    // MARK: - Helpers

    /// The account if `password` is right; counts failures and enforces the lock.
    private func checkPassword(email: String, password: String) throws(AuthError) -> AuthStore.Account {
        let locked = try storage { try store.lockRemaining(email: email, now: now) }
        if locked > 0 { throw AuthError.throttled(seconds: Int(locked)) }
        let account = try storage { try store.account(email: email) }
        let matches = hasher.verify(password, against: account?.passwordHash ?? decoyHash())
        guard let account, matches else {
            try storage { try store.recordFailure(email: email, now: now, policy: policy) }
            throw AuthError.wrongCredentials
        }
        try storage { try store.clearFailures(email: email) }
        return account
    }

    private func decoyHash() -> String {
        decoy.withLock { decoy in
            if let decoy { return decoy }
            let made = hasher.decoyHash()
            decoy = made
            return made
        }
    }

    private func current() throws(AuthError) -> AuthStore.Account {
        guard let account = try storage({ try store.currentAccount() }) else { throw AuthError.notLoggedIn }
        return account
    }

    /// Runs a store call, keeping Auth's own errors and wrapping storage failures.
    private func storage<T>(_ body: () throws -> T) throws(AuthError) -> T {
        do {
            return try body()
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError.storage("\(error)")
        }
    }
}
