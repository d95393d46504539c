import Synchronization

/// How a registration produces its value (the scopes of seed 001's Resolver).
public enum Lifetime<Value: Sendable>: Sendable {
    /// One value, made by the caller, shared by every resolve.
    case singleton(Value)
    /// One value, made on the first resolve, shared by every later one.
    case lazySingleton(@Sendable () -> Value)
    /// A new value on every resolve.
    case factory(@Sendable () -> Value)
}

/// A registration in the locator, stored under `ObjectIdentifier(Value.self)`.
///
/// Registrations are typed: the entry under a type's key is always an `Entry` of that type,
/// which is what lets `resolve` skip the dynamic protocol cast.
/// Unchecked: its fields are immutable after init, and a lazy value guards itself (made once
/// under concurrent first resolves: `ServiceLocatorTests.lazySingletonIsMadeOnce…`).
@usableFromInline
class AnyEntry: @unchecked Sendable {
    /// The type's name, for messages.
    let typeName: String
    /// The module that registered it.
    let owner: String
    /// A singleton's value, stored out of line so the hot path reads it through a field of
    /// this non-generic class (no generic metadata lookup). Owned by the `Entry` subclass.
    @usableFromInline let singleton: UnsafeMutableRawPointer?

    init(typeName: String, owner: String, singleton: UnsafeMutableRawPointer?) {
        self.typeName = typeName
        self.owner = owner
        self.singleton = singleton
    }
}

/// Unchecked for the same reason as ``AnyEntry``.
@usableFromInline
final class Entry<Value: Sendable>: AnyEntry, @unchecked Sendable {
    @usableFromInline let lifetime: Lifetime<Value>
    @usableFromInline let lazyValue: LazyValue<Value>?

    init(_ lifetime: Lifetime<Value>, typeName: String, owner: String) {
        self.lifetime = lifetime
        var singleton: UnsafeMutableRawPointer?
        var lazyValue: LazyValue<Value>?
        switch lifetime {
        case .singleton(let value):
            let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            storage.initialize(to: value)
            singleton = UnsafeMutableRawPointer(storage)
        case .lazySingleton(let make):
            lazyValue = LazyValue(make)
        case .factory:
            break
        }
        self.lazyValue = lazyValue
        super.init(typeName: typeName, owner: owner, singleton: singleton)
    }

    deinit {
        if let singleton {
            let storage = singleton.assumingMemoryBound(to: Value.self)
            storage.deinitialize(count: 1)
            storage.deallocate()
        }
    }

    @inlinable
    func value() -> Value {
        switch lifetime {
        case .singleton(let value): return value
        case .factory(let make): return make()
        case .lazySingleton(let make): return lazyValue?.value() ?? make()
        }
    }
}

/// A value made once, on first use; reads after that take no lock.
@usableFromInline
final class LazyValue<Value: Sendable>: Sendable {
    @usableFromInline
    final class Box: Sendable {
        @usableFromInline let value: Value
        init(_ value: Value) { self.value = value }
    }

    @usableFromInline let made = AtomicLazyReference<Box>()
    private let make: @Sendable () -> Value
    private let making = Mutex(())

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    @inlinable
    func value() -> Value {
        if let box = made.load() { return box.value }
        return makeOnce()
    }

    @usableFromInline
    func makeOnce() -> Value {
        // The lock makes "once" exact when two threads race on the first resolve.
        making.withLock { _ in
            if let box = made.load() { return box.value }
            return made.storeIfNil(Box(make())).value
        }
    }
}
