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
            ModuleCommand(name: "cities", summary: "List the saved cities through GeoRoute", usage: "cities") { _ in
                let cities = try context.resolver.resolve((any GeoRoute).self).savedCities()
                context.ui.print("\(cities.count) cities: " + cities.map { "\($0.city) (\($0.country))" }.joined(separator: ", "))
            },
            ModuleCommand(name: "describe", summary: "Describe a decoding error", usage: "describe") { _ in
                context.ui.print(HTTPClient.describe(DecodingError.valueNotFound(Int.self, .init(codingPath: [], debugDescription: ""))))
            },
        ]
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureRouteUser.self, request) }
