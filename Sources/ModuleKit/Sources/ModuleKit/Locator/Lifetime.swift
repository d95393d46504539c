import Glibc
import Synchronization

/// How a registration produces its value: one shared value, made now or on first use, or a new one each time.
///
/// A shared value (`.singleton`, `.lazySingleton`) is resolved with
/// ``ModuleResolver/resolve(_:)``; a factory's new values are made with
/// ``ModuleResolver/make(_:)``. Which one a route is belongs to its contract: a caller that
/// asks for the other gets a ``LocatorError/Kind/lifetime`` error saying which call to use.
public enum Lifetime<Value: Sendable>: Sendable {
    /// One value, made by the caller, shared by every resolve.
    case singleton(Value)
    /// One value, made on the first resolve, shared by every later one.
    case lazySingleton(@Sendable () -> Value)
    /// A new value on every ``ModuleResolver/make(_:)``.
    case factory(@Sendable () -> Value)
}

/// A registration in the locator, stored under `ObjectIdentifier(Value.self)`.
///
/// Registrations are typed: the entry under a type's key is always an `Entry` of that type,
/// which is what lets `resolve` skip the dynamic protocol cast.
/// Unchecked: its fields are immutable after init, and a lazy value guards itself (made once
/// under concurrent first resolves: `ServiceLocatorTests.lazySingletonIsMadeOnce…`).
class AnyEntry: @unchecked Sendable {
    /// The type's name, for messages.
    let typeName: String
    /// The module that registered it.
    let owner: String
    /// A singleton's value, stored out of line so the hot path reads it through a plain field
    /// of this non-generic class: no generic metadata, no atomic, no call. `nil` for a lazy
    /// singleton and a factory. Owned by the `Entry` subclass.
    let singleton: UnsafeMutableRawPointer?

    init(typeName: String, owner: String, singleton: UnsafeMutableRawPointer?) {
        self.typeName = typeName
        self.owner = owner
        self.singleton = singleton
    }

    /// Where the shared value lives, made now on a lazy singleton's first resolve; valid as
    /// long as the entry.
    ///
    /// - Throws: ``LocatorError/Kind/lifetime`` for a factory.
    func sharedValue() throws(LocatorError) -> UnsafeMutableRawPointer {
        if let singleton { return singleton }
        throw LocatorError(
            .lifetime, type: typeName,
            message: "'\(typeName)' is registered as a factory, a new value each time: get one with make(_:), not resolve(_:)")
    }
}

/// Unchecked for the same reason as ``AnyEntry``.
final class Entry<Value: Sendable>: AnyEntry, @unchecked Sendable {
    let lifetime: Lifetime<Value>
    /// A lazy singleton's value once made (see `isMade`); `nil` for the other lifetimes.
    private let lazyStorage: UnsafeMutablePointer<Value>?
    /// Publishes `lazyStorage`: a reader that sees `true` (acquiring) sees the whole value.
    private let isMade = Atomic<Bool>(false)
    /// Makes "once" exact when two threads race on the first resolve.
    private let making = Mutex(())
    /// The thread making the lazy value, while it does (0 otherwise): a maker that resolves
    /// its own value would otherwise take `making` again, which traps ("Recursive call to
    /// lock Mutex") and ends the process.
    private let maker = Atomic<UInt>(0)

    init(_ lifetime: Lifetime<Value>, typeName: String, owner: String) {
        self.lifetime = lifetime
        var singleton: UnsafeMutableRawPointer?
        var lazyStorage: UnsafeMutablePointer<Value>?
        switch lifetime {
        case .singleton(let value):
            let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)
            storage.initialize(to: value)
            singleton = UnsafeMutableRawPointer(storage)
        case .lazySingleton:
            lazyStorage = .allocate(capacity: 1)
        case .factory:
            break
        }
        self.lazyStorage = lazyStorage
        super.init(typeName: typeName, owner: owner, singleton: singleton)
    }

    deinit {
        if let singleton {
            let storage = singleton.assumingMemoryBound(to: Value.self)
            storage.deinitialize(count: 1)
            storage.deallocate()
        }
        if let lazyStorage {
            if isMade.load(ordering: .acquiring) { lazyStorage.deinitialize(count: 1) }
            lazyStorage.deallocate()
        }
    }

    override func sharedValue() throws(LocatorError) -> UnsafeMutableRawPointer {
        guard case .lazySingleton(let make) = lifetime, let lazyStorage else { return try super.sharedValue() }
        if !isMade.load(ordering: .acquiring) {
            let thread = UInt(pthread_self())
            if maker.load(ordering: .relaxed) == thread {
                throw LocatorError(
                    .cycle, type: typeName,
                    message: "'\(typeName)' was resolved while it was being made: its lazy singleton's maker needs itself")
            }
            // Made under the lock, so a second thread waits for the value rather than making
            // another.
            making.withLock { _ in
                guard !isMade.load(ordering: .acquiring) else { return }
                maker.store(thread, ordering: .relaxed)
                defer { maker.store(0, ordering: .relaxed) }
                lazyStorage.initialize(to: make())
                isMade.store(true, ordering: .releasing)
            }
        }
        return UnsafeMutableRawPointer(lazyStorage)
    }

    /// A new value from the factory.
    ///
    /// - Throws: ``LocatorError/Kind/lifetime`` for a shared value.
    func newValue() throws(LocatorError) -> Value {
        guard case .factory(let make) = lifetime else {
            throw LocatorError(
                .lifetime, type: typeName,
                message: "'\(typeName)' is registered as one shared value: get it with resolve(_:), not make(_:)")
        }
        return make()
    }
}
