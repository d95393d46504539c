import Dispatch
@_spi(Host) import ModuleKit
import ModuleKitTesting
import Synchronization
import Testing

protocol MapRoute: Sendable { func locate(_ city: String) -> String }
protocol WeatherRoute: Sendable {}
protocol ClockService: Sendable { var now: Int { get } }

struct Map: MapRoute { func locate(_ city: String) -> String { "\(city): 48.8N" } }
final class Counter: ClockService, Sendable {
    let now: Int
    init(_ now: Int) { self.now = now }
}

let mapKey = RouteKey.route((any MapRoute).self)
let weatherKey = RouteKey.route((any WeatherRoute).self)

/// A locator with a provider "Maps" (provides MapRoute) and a consumer "Trip" that requires
/// MapRoute and uses WeatherRoute.
/// Each locator's host access comes with it; the tests play the host (see `HostAccess`).
func makeLocator() -> (HostedLocator, maps: ModuleRegistry, trip: ModuleResolver) {
    let (plain, access) = ServiceLocator.withHostAccess()
    let locator = HostedLocator(locator: plain, access: access)
    let maps = ModuleManifest(name: "Maps", version: "1", provides: [mapKey])
    let trip = ModuleManifest(name: "Trip", version: "1", requires: [mapKey], uses: [weatherKey])
    let mapsResolver = locator.resolver(for: maps)
    let context = ModuleContext.testing(moduleName: "Maps", resolver: mapsResolver)
    return (locator, ModuleRegistry(context: context, locator: plain), locator.resolver(for: trip))
}

/// A locator with the access a host holds to it.
struct HostedLocator {
    let locator: ServiceLocator
    let access: HostAccess

    func resolver(for manifest: ModuleManifest) -> ModuleResolver { locator.resolver(for: manifest, access: access) }
    func hostResolver() -> ModuleResolver { locator.hostResolver(access: access) }
    func seal() { locator.seal() }
    var isSealed: Bool { locator.isSealed }
    func withdraw(module: String, provided: [RouteKey], reason: String) {
        locator.withdraw(module: module, provided: provided, reason: reason)
    }
    func markUnavailable(_ route: RouteKey, reason: String) { locator.markUnavailable(route, reason: reason) }
}

@Suite struct ServiceLocatorTests {
    @Test func routeRegisteredByOneModuleResolvesInAnother() throws {
        let (locator, maps, trip) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        #expect(try trip.resolve((any MapRoute).self).locate("Paris") == "Paris: 48.8N")
        locator.seal()
        let injected: any MapRoute = try trip.inject()
        #expect(injected.locate("Lyon") == "Lyon: 48.8N")
    }

    @Test func singletonLazySingletonAndFactoryScopes() throws {
        let (locator, maps, _) = makeLocator()
        let made = Atomic(0)
        try maps.service(Counter.self, .factory { Counter(made.add(1, ordering: .relaxed).newValue) })
        try maps.service((any ClockService).self, .lazySingleton { Counter(100 + made.add(1, ordering: .relaxed).newValue) })
        #expect(made.load(ordering: .relaxed) == 0, "a lazy singleton is not made at registration")
        for sealed in [false, true] {
            if sealed { locator.seal() }
            let first = try maps.resolver.make(Counter.self)
            let second = try maps.resolver.make(Counter.self)
            #expect(first !== second, "a factory makes a new value each time")
            let lazyA = try maps.resolver.resolve((any ClockService).self)
            let lazyB = try maps.resolver.resolve((any ClockService).self)
            #expect(lazyA.now == lazyB.now && lazyA.now > 100)
        }
        #expect(made.load(ordering: .relaxed) == 5, "four factory values and one lazy singleton")
    }

    @Test func aSharedValueAndAFactoryAreAskedForByTheirOwnCall() throws {
        let (locator, maps, _) = makeLocator()
        let made = Atomic(0)
        try maps.service(Counter.self, .factory { Counter(made.add(1, ordering: .relaxed).newValue) })
        try maps.service((any ClockService).self, .lazySingleton { Counter(100) })
        try maps.service(String.self, .singleton("shared"))
        for sealed in [false, true] {
            if sealed { locator.seal() }
            let resolved = #expect(throws: LocatorError.self) { try maps.resolver.resolve(Counter.self) }
            #expect(resolved?.kind == .lifetime)
            #expect(
                resolved?.message
                    == "'Counter' is registered as a factory, a new value each time: get one with make(_:), not resolve(_:)")
            #expect(throws: LocatorError.self, "a factory is not an absence") { try maps.resolver.optional(Counter.self) }
            for made in [
                #expect(throws: LocatorError.self) { try maps.resolver.make((any ClockService).self) },
                #expect(throws: LocatorError.self) { try maps.resolver.make(String.self) },
            ] {
                #expect(made?.kind == .lifetime)
                #expect(made?.message.hasSuffix("is registered as one shared value: get it with resolve(_:), not make(_:)") == true)
            }
        }
        #expect(made.load(ordering: .relaxed) == 0, "nothing was made by the wrong call")
        #expect(try maps.resolver.resolve(String.self) == "shared")
    }

    @Test func aLazySingletonMadeBeforeTheSealIsTheOneResolvedAfter() throws {
        let (locator, maps, trip) = makeLocator()
        let made = Atomic(0)
        try maps.route(
            (any MapRoute).self,
            .lazySingleton {
                made.add(1, ordering: .relaxed); return Map()
            })
        #expect(try trip.resolve((any MapRoute).self).locate("Nice") == "Nice: 48.8N")
        locator.seal()
        #expect(try trip.resolve((any MapRoute).self).locate("Metz") == "Metz: 48.8N")
        #expect(made.load(ordering: .relaxed) == 1)
    }

    @Test func aLazySingletonWhoseMakerNeedsItselfIsAnErrorNotATrap() throws {
        let (locator, maps, _) = makeLocator()
        let resolver = maps.resolver
        let inner = Mutex<LocatorError?>(nil)
        // Through a second service, as a real cycle goes: the clock needs the counter, which
        // needs the clock.
        try maps.service((any ClockService).self, .lazySingleton { (try? resolver.resolve(Counter.self)) ?? Counter(-1) })
        try maps.service(
            Counter.self,
            .lazySingleton {
                do {
                    return Counter(try resolver.resolve((any ClockService).self).now)
                } catch {
                    inner.withLock { $0 = error as? LocatorError }
                    return Counter(-2)
                }
            })
        locator.seal()
        #expect(try resolver.resolve((any ClockService).self).now == -2)
        #expect(inner.withLock { $0?.kind } == .cycle)
        #expect(
            inner.withLock { $0?.message }
                == "'ClockService' was resolved while it was being made: its lazy singleton's maker needs itself")
        // Made once: the cycle did not leave a half-made value behind.
        #expect(try resolver.resolve(Counter.self).now == -2)
    }

    @Test func valuesAreReleasedWithTheLocator() throws {
        weak var singleton: Counter?
        weak var lazy: Counter?
        do {
            let (locator, maps, _) = makeLocator()
            let value = Counter(1)
            singleton = value
            try maps.service(Counter.self, .singleton(value))
            try maps.service((any ClockService).self, .lazySingleton { Counter(2) })
            locator.seal()
            lazy = try maps.resolver.resolve((any ClockService).self) as? Counter
            #expect(singleton != nil && lazy != nil)
        }
        #expect(singleton == nil && lazy == nil, "the entries free what they hold")
    }

    @Test func lazySingletonIsMadeOnceUnderConcurrentFirstResolves() throws {
        let (locator, maps, _) = makeLocator()
        let made = Atomic(0)
        try maps.service(Counter.self, .lazySingleton { Counter(made.add(1, ordering: .relaxed).newValue) })
        locator.seal()
        let resolver = maps.resolver
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            _ = try? resolver.resolve(Counter.self)
        }
        #expect(made.load(ordering: .relaxed) == 1)
    }

    @Test func resolvesFromManyThreadsBeforeAndAfterSeal() throws {
        let (locator, maps, trip) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index == 100 { locator.seal() }
            if (try? trip.resolve((any MapRoute).self)) == nil { failures.add(1, ordering: .relaxed) }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(locator.isSealed)
    }

    @Test func undeclaredRouteIsAnErrorNamingModuleAndRoute() throws {
        let (locator, maps, _) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        let stranger = locator.resolver(for: ModuleManifest(name: "Stranger", version: "1"))
        for sealed in [false, true] {
            if sealed { locator.seal() }
            let error = #expect(throws: LocatorError.self) { try stranger.resolve((any MapRoute).self) }
            #expect(error?.kind == .undeclared)
            #expect(
                error?.message
                    == "module 'Stranger' resolved 'MapRoute', which is neither one of its services nor a route it declares in 'requires' or 'uses'"
            )
            // optional(_:) treats an undeclared route as the bug it is, not as an absence.
            #expect(throws: LocatorError.self) { try stranger.optional((any MapRoute).self) }
        }
    }

    @Test func unavailableRouteCarriesTheReason() throws {
        let (locator, _, trip) = makeLocator()
        locator.markUnavailable(weatherKey, reason: "'Weather' failed: threw in start: no network")
        locator.seal()
        let error = #expect(throws: LocatorError.self) { try trip.resolve((any WeatherRoute).self) }
        #expect(error?.kind == .unavailable)
        #expect(error?.message == "route 'WeatherRoute' is unavailable: 'Weather' failed: threw in start: no network")
        #expect(try trip.optional((any WeatherRoute).self) == nil)
        #expect(trip.ifAvailable((any WeatherRoute).self) == nil, "the non-throwing form answers nil too")
        let missing = #expect(throws: LocatorError.self) { try trip.resolve((any MapRoute).self) }
        #expect(missing?.message == "route 'MapRoute' is unavailable: no active module provides it")
    }

    @Test func withdrawnModuleLeavesItsRoutesUnavailable() throws {
        let (locator, maps, trip) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        locator.withdraw(module: "Maps", provided: [mapKey], reason: "'Maps' failed: threw in start: disk full")
        let error = #expect(throws: LocatorError.self) { try trip.resolve((any MapRoute).self) }
        #expect(error?.message == "route 'MapRoute' is unavailable: 'Maps' failed: threw in start: disk full")
    }

    @Test func secondProviderOfARouteIsAnErrorNamingBoth() throws {
        let (locator, maps, _) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        let other = locator.resolver(for: ModuleManifest(name: "OtherMaps", version: "1", provides: [mapKey]))
        let registry = ModuleRegistry(
            context: ModuleContext.testing(moduleName: "OtherMaps", resolver: other),
            locator: locator.locator)
        let error = #expect(throws: LocatorError.self) { try registry.route((any MapRoute).self, .singleton(Map())) }
        #expect(error?.kind == .duplicate)
        #expect(error?.message == "route 'MapRoute' is provided by both 'Maps' and 'OtherMaps'")
    }

    @Test func registrationMistakesAreErrors() throws {
        let (locator, maps, _) = makeLocator()
        let undeclared = #expect(throws: LocatorError.self) { try maps.route((any WeatherRoute).self, .singleton(Weather())) }
        #expect(undeclared?.message == "module 'Maps' registers route 'WeatherRoute' but does not declare it in 'provides'")
        let asService = #expect(throws: LocatorError.self) { try maps.service((any MapRoute).self, .singleton(Map())) }
        #expect(asService?.message == "module 'Maps' registers 'MapRoute' as a service, but declares it as a route; use route(_:_:)")
        try maps.service(Counter.self, .singleton(Counter(1)))
        let twice = #expect(throws: LocatorError.self) { try maps.service(Counter.self, .singleton(Counter(2))) }
        #expect(twice?.message == "module 'Maps' registers service 'Counter' twice")
        locator.seal()
        let late = #expect(throws: LocatorError.self) { try maps.route((any MapRoute).self, .singleton(Map())) }
        #expect(late?.kind == .sealed)
        #expect(late?.message == "module 'Maps' registered 'MapRoute' after start-up; register everything in register(_:configuration:)")
    }

    @Test func servicesArePrivateToTheirModule() throws {
        let (locator, maps, trip) = makeLocator()
        try maps.service(Counter.self, .singleton(Counter(7)))
        locator.seal()
        #expect(try maps.resolver.resolve(Counter.self).now == 7)
        let error = #expect(throws: LocatorError.self) { try trip.resolve(Counter.self) }
        #expect(error?.kind == .undeclared)
    }

    @Test func theHostAccessGoesOnlyToTheFirstClaimant() {
        // The host claims it before any module is loaded; a module asking later gets nothing,
        // even through `@_spi(Host) import ModuleKit`.
        let locator = ServiceLocator()
        #expect(locator.claimHostAccess() != nil)
        #expect(locator.claimHostAccess() == nil)
        #expect(ServiceLocator.withHostAccess().locator.claimHostAccess() == nil)
    }

    @Test func anAccessOfAnotherLocatorReachesNothingAndCrashesNothing() throws {
        // Module code can make itself an access, of a locator of its own; offered to the
        // host's locator it gets a resolver that reaches no route, not the host's.
        let (locator, maps, _) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        locator.seal()
        let foreign = ServiceLocator.withHostAccess().access
        for resolver in [
            locator.locator.hostResolver(access: foreign),
            locator.locator.resolver(for: ModuleManifest(name: "Trip", version: "1", requires: [mapKey]), access: foreign),
        ] {
            let error = #expect(throws: LocatorError.self) { try resolver.resolve((any MapRoute).self) }
            #expect(error?.kind == .undeclared, "\(String(describing: error))")
        }
        #expect(try locator.hostResolver().resolve((any MapRoute).self).locate("Rome") == "Rome: 48.8N")
    }

    @Test func hostResolverReachesEveryRoute() throws {
        let (locator, maps, _) = makeLocator()
        try maps.route((any MapRoute).self, .singleton(Map()))
        locator.seal()
        let host = locator.hostResolver()
        #expect(try host.resolve((any MapRoute).self).locate("Rome") == "Rome: 48.8N")
        let error = #expect(throws: LocatorError.self) { try host.resolve(Counter.self) }
        #expect(error?.message == "nothing is registered for 'Counter'")
    }

    @Test func injectedResolvesAtConstructionAndThrowsInsteadOfCrashing() throws {
        final class Planner {
            @Injected var map: any MapRoute
            init(resolver: ModuleResolver) throws {
                _map = try Injected(resolver)
            }
        }
        let (locator, maps, trip) = makeLocator()
        #expect(throws: LocatorError.self) { try Planner(resolver: trip) }
        try maps.route((any MapRoute).self, .singleton(Map()))
        locator.seal()
        #expect(try Planner(resolver: trip).map.locate("Oslo") == "Oslo: 48.8N")
    }

    @Test func routeKeysNameTheProtocol() {
        #expect(mapKey.name == "MapRoute")
        #expect(RouteKey.route(Counter.self).name == "Counter")
        #expect(mapKey == RouteKey.route((any MapRoute).self))
        #expect(mapKey != weatherKey)
    }
}

struct Weather: WeatherRoute {}
