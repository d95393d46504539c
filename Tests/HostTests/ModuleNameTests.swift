import Foundation
import Testing

@testable import HostLifecycle
@testable import HostModel

/// Module names compare without regard to case wherever the host compares them, and keep
/// their spelling wherever it shows them.
@Suite struct ModuleNameTests {
    @Test func equalityAndHashingIgnoreCase() {
        #expect(ModuleName("Geo") == ModuleName("GEO"))
        #expect(ModuleName("Geo") != ModuleName("Geos"))
        #expect(Set([ModuleName("Geo"), ModuleName("geo"), ModuleName("Auth")]).count == 2)
        #expect(ModuleName("GeoPlus").spelling == "GeoPlus")
        #expect(ModuleName("GeoPlus").commandWord == "geoplus")
        #expect(["Auth", "GEO"].containsModule("geo"))
        #expect(!["Auth"].containsModule("Geo"))
    }

    @Test func configurationEntriesAndRunOptionsFollowIt() throws {
        let configuration = try ModulesFileDecoder(defaultSearchPath: "/opt/modhost/bin").decode(
            Data(#"{"modules": [{"name": "Geo", "enabled": false}, {"name": "Auth", "enabled": true}]}"#.utf8), path: "/m.json")
        #expect(throws: ModulesFileError.self) {
            _ = try ModulesFileDecoder(defaultSearchPath: "/opt/modhost/bin").decode(
                Data(#"{"modules": [{"name": "Geo", "enabled": true}, {"name": "GEO", "enabled": true}]}"#.utf8), path: "/m.json")
        }
        #expect(configuration.entry(named: "gEo")?.name == "Geo")
        let runtime = try HostRuntime(configuration: configuration, options: RuntimeOptions(enable: ["GEO"], disable: ["auth"]))
        #expect(runtime.configuration.modules.map(\.enabled) == [true, false])
    }
}
