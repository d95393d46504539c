/// A person with an account: the one logged in, as Auth tells others.
public struct AuthUser: Sendable, Hashable, Codable {
    public let email: String
    public let name: String

    public init(email: String, name: String) {
        self.email = email
        self.name = name
    }
}

/// Provided by Auth: who is logged in, and the log-in flows other modules present.
///
/// ```swift
/// let auth = try context.resolver.optional((any AuthRoute).self)
/// if auth?.currentUser == nil { auth?.presentLogIn { user in … } }
/// ```
/// Used on the main actor, where the app and its screens run.
@MainActor
public protocol AuthRoute: Sendable {
    /// The person logged in, kept across restarts until log out; `nil` when nobody is.
    var currentUser: AuthUser? { get }

    /// Calls `observer` after every log in (with the user) and log out (with `nil`) in this
    /// process, on the main actor, until the returned observation is cancelled.
    func observe(_ observer: @escaping @MainActor (AuthUser?) -> Void) -> any AuthObservation

    /// Shows Auth's log-in screen on top of the app; `completion` gets the user, or `nil`
    /// when the person backs out.
    func presentLogIn(completion: @escaping @MainActor (AuthUser?) -> Void)

    /// Shows Auth's registration screen; `completion` gets the new, logged-in user or `nil`.
    func presentRegistration(completion: @escaping @MainActor (AuthUser?) -> Void)

    /// Shows Auth's reset-password screens (request a token, then set a new password).
    func presentPasswordReset()

    /// Logs the current user out.
    func logOut() throws

    /// Renames the current user.
    func updateDisplayName(_ name: String) throws

    /// Changes the current user's password after checking the current one.
    func changePassword(current: String, new: String) throws
}

/// A registration made with `AuthRoute.observe`.
public protocol AuthObservation: AnyObject, Sendable {
    func cancel()
}
