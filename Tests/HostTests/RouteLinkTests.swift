import Contracts
import Foundation
import Glibc
import HostProcesses
import Synchronization
import Testing

@testable import HostIsolation

/// Route calls between two links over a real socketpair, through the proxies and dispatchers
/// generated from Contracts: values and errors cross, a call made back while one waits is
/// served, a callback's reference is released, and a peer that goes or breaks the protocol
/// makes its routes unavailable at once, told once.
@Suite struct RouteLinkTests {
    /// A GeoRoute with saved cities, or that throws, or that asks the host's version back.
    struct Cities: GeoRoute {
        var cities: [SavedCity] = [SavedCity(country: "FR", countryName: "France", city: "Lyon")]
        var failure: String?
        var askBack: (@Sendable () -> String)?

        struct Broken: Error, CustomStringConvertible {
            let description: String
        }

        func savedCities() throws -> [SavedCity] {
            if let failure { throw Broken(description: failure) }
            if let askBack { return [SavedCity(country: "XX", countryName: askBack(), city: "asked back")] }
            return cities
        }

        @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void) {}
    }

    struct Host: HostInfoRoute {
        var hostVersion: String { "9.9.9" }
        var environment: String { "test" }
        var modules: [ModuleStatus] { [ModuleStatus(name: "Geo", state: .active, reason: nil, version: "1.0.0")] }
        var dataFolder: String { "/data" }
        var commands: [String] { [] }
        func check() -> [String]? { ["all is ready"] }
    }

    /// What several threads add to, read at the end.
    final class Recorder<Value: Sendable>: Sendable {
        private let values = Mutex<[Value]>([])
        func add(_ value: Value) { values.withLock { $0.append(value) } }
        var all: [Value] { values.withLock { $0 } }
    }

    /// Two links over one socketpair; `serving` runs on its own thread until `caller` closes.
    final class Pair: Sendable {
        let caller: RouteLink
        let serving: RouteLink
        let failures = Recorder<RouteCallError>()
        let served = DispatchSemaphore(value: 0)
        let servingEnd = Recorder<RouteCallError?>()

        init(
            callerRoutes: [String: @Sendable () throws -> any RouteDispatching] = [:],
            servedRoutes: [String: @Sendable () throws -> any RouteDispatching]
        ) throws {
            let (one, other) = try FrameChannel.pair()
            let failures = self.failures
            caller = RouteLink(
                channel: one, peer: "module 'Test'", routes: { callerRoutes[$0] }, callLimit: .seconds(20),
                onFailure: { error in failures.add(error) })
            serving = RouteLink(channel: other, peer: "the host", routes: { servedRoutes[$0] }, callLimit: .seconds(20))
            let serving = self.serving
            let servingEnd = self.servingEnd
            let served = self.served
            Thread.detachNewThread {
                let end = serving.serveUntilClosed()
                servingEnd.add(end)
                served.signal()
            }
        }

        func close() -> RouteCallError? {
            caller.close()
            served.wait()
            return servingEnd.all.first ?? nil
        }
    }

    @Test func aRouteCallCrossesAndAnswersItsValue() throws {
        let pair = try Pair(servedRoutes: ["GeoRoute": { GeoRouteDispatcher(target: Cities()) }])
        let geo = GeoRouteProxy(.route("GeoRoute", on: pair.caller))
        #expect(try geo.savedCities() == Cities().cities)
        #expect(try geo.savedCities() == Cities().cities)
        // Each call counted with its time, by route and member.
        let summaries = pair.caller.stats.summaries
        #expect(summaries.map(\.member) == ["GeoRoute.savedCities()"])
        #expect(summaries.first?.count == 2)
        #expect((summaries.first?.p50 ?? .zero) > .zero)
        #expect((summaries.first?.p99 ?? .zero) >= (summaries.first?.p50 ?? .zero))
        #expect(pair.close() == nil)
    }

    @Test func anErrorCrossesAsTheCalleesTypeAndMessage() throws {
        let pair = try Pair(servedRoutes: ["GeoRoute": { GeoRouteDispatcher(target: Cities(failure: "the database is locked")) }])
        let geo = GeoRouteProxy(.route("GeoRoute", on: pair.caller))
        let error = #expect(throws: RouteCallError.self) { try geo.savedCities() }
        guard case .thrown(let type, let message)? = error else { Issue.record("not a thrown error: \(String(describing: error))"); return }
        #expect(type.hasSuffix("Cities.Broken"))
        #expect(message == "the database is locked")
        // The link stays up after a callee's error.
        #expect(pair.caller.failed == nil)
        _ = pair.close()
    }

    @Test func valuesOfEveryShapeCrossAndNonThrowingMembersAnswer() throws {
        let pair = try Pair(servedRoutes: ["HostInfoRoute": { HostInfoRouteDispatcher(target: Host()) }])
        let host = HostInfoRouteProxy(.route("HostInfoRoute", on: pair.caller))
        #expect(host.hostVersion == "9.9.9")
        #expect(host.modules == Host().modules)
        #expect(host.check() == ["all is ready"])
        _ = pair.close()
    }

    /// The countries of the cities a served GeoRoute answers when it asks the caller's
    /// HostInfoRoute for the host's version with `ask`, while the caller waits for its answer.
    func citiesAskingBack(_ ask: @escaping @Sendable (RouteLink) -> String) throws -> [String] {
        let holder = Recorder<RouteLink>()
        let pair = try Pair(
            callerRoutes: ["HostInfoRoute": { HostInfoRouteDispatcher(target: Host()) }],
            servedRoutes: [
                "GeoRoute": {
                    let link = holder.all.first
                    return GeoRouteDispatcher(target: Cities(askBack: { link.map(ask) ?? "no link" }))
                }
            ])
        holder.add(pair.serving)
        defer { _ = pair.close() }
        return try GeoRouteProxy(.route("GeoRoute", on: pair.caller)).savedCities().map(\.countryName)
    }

    @Test func aCallMadeBackWhileOneWaitsIsServed() throws {
        #expect(try citiesAskingBack { link in HostInfoRouteProxy(.route("HostInfoRoute", on: link)).hostVersion } == ["9.9.9"])
    }

    @Test func aCallMadeBackFromAnotherThreadWhileOneWaitsIsServed() throws {
        // On a thread of its own, waited for: a module's background work that the call waits for.
        let countries = try citiesAskingBack { link in
            let answer = Recorder<String>()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                answer.add(HostInfoRouteProxy(.route("HostInfoRoute", on: link)).hostVersion)
                done.signal()
            }
            done.wait()
            return answer.all.first ?? "none"
        }
        #expect(countries == ["9.9.9"])
    }

    /// Calls back each callback it is sent with one word.
    struct CallsBack: RouteDispatching {
        func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
            let callback = try call.callback(0)
            callback.invoke { $0.value("called back: \(member)") }
            return .void
        }

        @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? { nil }
    }

    @Test func aCallbackIsCalledBackThenReleased() throws {
        let pair = try Pair(servedRoutes: ["Echo": { CallsBack() }])
        let heard = Recorder<String>()
        var arguments = RouteArguments()
        arguments.callback(onMainActor: false) { call in
            let word = try call.value(0, as: String.self)
            heard.add(word)
        }
        _ = try pair.caller.call(.route("Echo"), "ring", arguments)
        #expect(heard.all == ["called back: ring"])
        // The other side's reference went with the call: released, so not held here.
        #expect(pair.caller.exportedCount == 0)
        _ = pair.close()
    }

    /// A link whose thread waits for the next call (holding the link) is closed at once from
    /// another thread: the end of the socket wakes the wait.
    @Test func closeEndsALinkWhoseThreadWaitsForACall() throws {
        let pair = try Pair(servedRoutes: ["GeoRoute": { GeoRouteDispatcher(target: Cities()) }])
        // The serving thread is in its read by then (or soon after; the close serves either way).
        usleep(100_000)
        let closed = DispatchSemaphore(value: 0)
        let serving = pair.serving
        Thread.detachNewThread {
            serving.close()
            closed.signal()
        }
        #expect(closed.wait(timeout: .now() + 20) == .success, "close did not wait for the serving thread's read")
        #expect(pair.served.wait(timeout: .now() + 20) == .success)
    }

    @Test func aPeerThatGoesMakesEveryRouteUnavailableToldOnce() throws {
        let pair = try Pair(servedRoutes: ["GeoRoute": { GeoRouteDispatcher(target: Cities()) }])
        pair.serving.close()
        pair.served.wait()
        let geo = GeoRouteProxy(.route("GeoRoute", on: pair.caller))
        for _ in 0..<3 {
            let error = #expect(throws: RouteCallError.self) { try geo.savedCities() }
            guard case .unavailable(let peer, _)? = error else { Issue.record("not unavailable: \(String(describing: error))"); return }
            #expect(peer == "module 'Test'")
        }
        // A member that cannot throw answers its empty value.
        #expect(HostInfoRouteProxy(.route("HostInfoRoute", on: pair.caller)).check() == nil)
        #expect(pair.failures.all.count == 1)
    }

    @Test(arguments: [
        (RouteMessage.answer(id: 99, .answered(.void)).frame, "answered call 99"),
        (Frame(kind: 9, payload: [1, 2, 3]), "a frame of kind 9"),
        (Frame(kind: RouteMessage.Kind.answer, payload: [1]), "does not read"),
    ])
    func aPeerThatBreaksTheProtocolIsCutOffAndNamed(reply: Frame, named: String) throws {
        let (one, other) = try FrameChannel.pair()
        let failures = Recorder<RouteCallError>()
        let link = RouteLink(channel: one, peer: "module 'Rogue'", callLimit: .seconds(20), onFailure: { error in failures.add(error) })
        // Only the rogue's thread touches its end.
        nonisolated(unsafe) let rogueEnd = other
        let rogue = Thread {
            _ = try? rogueEnd.receive()
            try? rogueEnd.send(reply)
        }
        rogue.start()
        let error = #expect(throws: RouteCallError.self) { try GeoRouteProxy(.route("GeoRoute", on: link)).savedCities() }
        guard case .unavailable(let peer, let reason)? = error else { Issue.record("not cut off: \(String(describing: error))"); return }
        #expect(peer == "module 'Rogue'")
        #expect(reason.contains("cut off"))
        #expect(reason.contains(named))
        #expect(failures.all.count == 1)
        // Cut off for good: the next call fails at once, with nothing sent.
        #expect(throws: RouteCallError.self) { try GeoRouteProxy(.route("GeoRoute", on: link)).savedCities() }
    }

    @Test func percentilesAreNearestRank() {
        let durations = (1...100).map { Duration.milliseconds($0) }
        #expect(RouteCallStats.percentile(durations, 0.50) == .milliseconds(50))
        #expect(RouteCallStats.percentile(durations, 0.99) == .milliseconds(99))
        #expect(RouteCallStats.percentile([.milliseconds(7)], 0.99) == .milliseconds(7))
        #expect(RouteCallStats.percentile([], 0.5) == .zero)
    }

    @Test func aPeerThatDoesNotAnswerInTimeIsCutOff() throws {
        let (one, other) = try FrameChannel.pair()
        let link = RouteLink(channel: one, peer: "module 'Slow'", callLimit: .milliseconds(200))
        let error = #expect(throws: RouteCallError.self) { try GeoRouteProxy(.route("GeoRoute", on: link)).savedCities() }
        #expect(error == .unavailable(peer: "module 'Slow'", reason: "it did not answer 'GeoRoute.savedCities()' within 0.2 s"))
        withExtendedLifetime(other) {}
    }

    /// A call's CPU time is counted over a window of twice the limit: a loop that burns the
    /// limit within it is stopped; the same CPU time spread over a long screen is not.
    @Test func theCPUBudgetCountsAWindowOfTwiceItsLimit() {
        let budget = CPUBudget(limit: .seconds(10), setting: "limits.cpuSeconds") { nil }
        let began = ContinuousClock.now
        func watch(_ readings: [(second: Int, used: Int)]) -> Bool {
            var watch = CPUBudget.Watch(call: "c", used: .zero, at: began)
            // Whether any reading found the call past its budget.
            return readings.map { watch.note(.seconds($0.used), at: began + .seconds($0.second), of: budget) }.contains(true)
        }
        // Burning a core: past 10 s of CPU after 11 s.
        #expect(watch((1...11).map { ($0, $0) }))
        #expect(!watch((1...10).map { ($0, $0) }))
        // 1 s of CPU every 3 s for 90 s: 30 s in all, at most 7 s within any 20 s.
        #expect(!watch((1...30).map { ($0 * 3, $0) }))
        // Half a core for 30 s: 15 s in all, 10 s within 20 s, not more.
        #expect(!watch((1...30).map { ($0, $0 / 2) }))
        #expect(watch((1...30).map { ($0, $0 * 2 / 3) }))
    }
}
