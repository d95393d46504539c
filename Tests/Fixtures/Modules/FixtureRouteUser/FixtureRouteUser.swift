import Contracts
import ModuleKit

/// Test module: lists the cities of whichever module provides `GeoRoute`, and describes an
/// error with `HTTPClient.describe(_:)`, a kit function the host itself never calls (the
/// compatibility tests take it out of a copy of the kit and expect this module to be refused).
final class FixtureRouteUser: Module {
    init() {}

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "cities", summary: "List the saved cities through GeoRoute", usage: "cities [TIMES]") { invocation in
                let geo = try context.resolver.resolve((any GeoRoute).self)
                // TIMES > 1: asks that many times, saying each call's error and going on.
                guard let times = invocation.arguments.first.flatMap({ Int($0) }), times > 1 else {
                    let cities = try geo.savedCities()
                    context.ui.print("\(cities.count) cities: " + cities.map { "\($0.city) (\($0.country))" }.joined(separator: ", "))
                    return
                }
                for time in 1...times {
                    do {
                        let cities = try geo.savedCities()
                        context.ui.print(
                            "call \(time): \(cities.count) cities: " + cities.map { "\($0.city) (\($0.country))" }.joined(separator: ", "))
                    } catch {
                        context.ui.print("call \(time): \(error)")
                    }
                }
            },
            ModuleCommand(name: "describe", summary: "Describe a decoding error", usage: "describe") { _ in
                context.ui.print(HTTPClient.describe(DecodingError.valueNotFound(Int.self, .init(codingPath: [], debugDescription: ""))))
            },
        ]
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureRouteUser.self, request) }
