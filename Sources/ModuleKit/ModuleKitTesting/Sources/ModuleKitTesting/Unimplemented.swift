import Testing

/// Fails the running test loudly — naming the route and the member — and returns
/// `placeholder` so the code under test can go on. Test doubles call it for every member a
/// test did not set up.
///
/// ```swift
/// struct AuthDouble: AuthRoute {
///     var currentUser: User? { unimplemented("AuthRoute.currentUser", placeholder: nil) }
/// }
/// ```
public func unimplemented<Value>(
    _ member: String,
    placeholder: Value,
    sourceLocation: SourceLocation = #_sourceLocation
) -> Value {
    Issue.record("unimplemented: \(member) was called, but the test double does not implement it", sourceLocation: sourceLocation)
    return placeholder
}
