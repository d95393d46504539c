/// A value resolved once, when the object holding it is made.
///
/// Resolution happens in the initializer, which throws, so a missing dependency is an error at
/// construction and never a crash at first use:
///
/// ```swift
/// final class ListInteractor {
///     @Injected var storage: any GeoStorage
///     init(resolver: ModuleResolver) throws {
///         _storage = try Injected(resolver)
///     }
/// }
/// ```
@propertyWrapper
public struct Injected<Value: Sendable>: Sendable {
    public let wrappedValue: Value

    /// Resolves `Value` through `resolver`.
    ///
    /// - Throws: ``LocatorError`` when `Value` is undeclared, unavailable or not registered.
    public init(_ resolver: ModuleResolver) throws(LocatorError) {
        wrappedValue = try resolver.resolve(Value.self)
    }
}
