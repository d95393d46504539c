import Foundation
import TestSupport
import Testing

/// The SDK's promise, proven with real builds: a module built against this checkout's kit
/// keeps loading in a host built from a later minor of it, and uses the routes of a module
/// built against that minor; a change that breaks built modules fails `Scripts/check-sdk.sh`,
/// which names it, and a module that needs what such a kit lost is refused by name at load.
///
/// Each test builds a copy of the kit (and the first a host from it), so the suite runs one
/// test at a time: the machines have two cores.
///
/// It builds kits and hosts of its own and runs those: not a world of this build's host.
@Suite(.serialized) struct SDKCompatibilityTests {
    let record: HostileLibrary.BuildRecord

    init() throws {
        record = try HostileLibrary.buildRecord()
    }

    /// The next minor of this checkout's SDK ("1.1.0" after "1.0.0").
    var nextMinor: String {
        let parts = record.sdk.split(separator: ".").compactMap { Int($0) }
        return "\(parts[0]).\(parts[1] + 1).0"
    }

    @Test func modulesOfThisReleaseRunInAHostOfALaterMinor() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let kit = folder + "/kit"
        try SourceTree.copy(from: TestEnvironment.repository + "/Sources/ModuleKit", to: kit)
        // What a minor may do: a doc comment, a changed body, a new function and type, a new
        // route requirement with a default; and the version that says so.
        try SourceTree.edit(kit + "/Sources/CModuleABI/include/modhost_abi.h", [("\"\(record.sdk)\"", "\"\(nextMinor)\"")])
        try SourceTree.edit(
            kit + "/Sources/ModuleKit/Module/Module.swift",
            [("/// A feature module", "/// Documented again in a later minor.\n/// A feature module")])
        try SourceTree.edit(
            kit + "/Sources/ModuleKit/Networking/HTTPClient.swift", [("default: \"\\(error)\"", "default: String(describing: error)")])
        try Data(
            """
            /// Added in a later minor.
            public struct KitAtlas: Sendable {
                public let pages: Int
                public init(pages: Int) { self.pages = pages }
            }

            /// Added in a later minor.
            public func laterAtlas() -> KitAtlas { KitAtlas(pages: 7) }

            """.utf8
        ).write(to: URL(fileURLWithPath: kit + "/Sources/ModuleKit/Module/LaterAddition.swift"))
        try SourceTree.edit(
            kit + "/Sources/Contracts/GeoRoute.swift",
            [
                (
                    "    @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void)\n}\n",
                    "    @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void)\n\n"
                        + "    /// Added in a later minor.\n    func cityCount() throws -> Int\n}\n\n"
                        + "extension GeoRoute {\n    public func cityCount() throws -> Int { try savedCities().count }\n}\n"
                )
            ])
        let host = folder + "/host"
        try Self.writeHostPackage(at: host)
        let built = try SourceTree.swift(["build", "--package-path", host])
        try #require(built.status == 0, "\(built.stdout.suffix(3000))\n\(built.stderr.suffix(3000))")
        // The gate passes the changes, and names each addition and the bump it needs.
        let gate = try Self.gate(kit: kit, modules: host + "/.build/debug/Modules")
        #expect(gate.status == 0, "\(gate.stdout)\n\(gate.stderr)")
        #expect(!gate.stdout.contains("error"), "\(gate.stdout)")
        #expect(gate.stdout.contains("Additions (SDK \(nextMinor) is a new minor or major, as they need):\n"), "\(gate.stdout)")
        for addition in ["ModuleKit: func laterAtlas()", "ModuleKit: struct KitAtlas", "Contracts: func GeoRoute.cityCount()"] {
            #expect(gate.stdout.contains("  \(addition)\n"), "\(gate.stdout)")
        }
        // Had the version stayed, the same additions would ask for the minor.
        let unbumped = try Self.header(in: folder + "/unbumped", version: record.sdk)
        let asking = try Self.gate(
            kit: unbumped, modules: host + "/.build/debug/Modules", baseline: TestEnvironment.repository + "/Sources/ModuleKit/SDKBaseline")
        #expect(asking.status == 0)
        #expect(asking.stdout.contains("Additions: each needs a new minor, SDK \(nextMinor) (set MODHOST_SDK_VERSION"), "\(asking.stdout)")

        let later = host + "/.build/debug/modhost"
        #expect(try ChildProcess.run(later, ["--version"]).stdout.contains("ModuleKit SDK \(nextMinor), \(record.compiler))"))

        // Atlas, built against the later kit, provides GeoRoute; FixtureRouteUser and Settings,
        // built by this checkout's build, were built against this release.
        let config = try TestEnvironment.write(
            """
            {"environment": "test", "modules": [
              {"name": "Atlas", "enabled": true, "library": "\(host)/.build/debug/libAtlas.so"},
              {"name": "FixtureRouteUser", "enabled": true, "library": "\(TestEnvironment.library("FixtureRouteUser"))"},
              {"name": "Settings", "enabled": true, "library": "\(TestEnvironment.library("Settings"))"}
            ]}
            """)
        let data = try TestEnvironment.temporaryFolder()
        func run(_ arguments: [String]) throws -> ProcessResult {
            try ChildProcess.run(later, ["--config", config, "--data-dir", data] + arguments)
        }
        let modules = try run(["modules"])
        #expect(modules.status == 0, "\(modules.stderr)")
        for name in ["Atlas", "FixtureRouteUser", "Settings"] {
            #expect(
                modules.stdout.split(separator: "\n").contains { $0.hasPrefix(name + " ") && $0.contains(" active ") }, "\(modules.stdout)")
        }
        let cities = try run(["fixturerouteuser", "cities"])
        #expect(cities.status == 0, "\(cities.stderr)")
        #expect(cities.stdout == "1 cities: Paris (FR)\n", "the old module calls the new module's route")
        let described = try run(["fixturerouteuser", "describe"])
        #expect(described.stdout == "wrong value at ''\n", "a kit function whose body changed")
        let atlas = try run(["atlas", "pages"])
        #expect(atlas.stdout == "7 pages, 1 cities\n", "\(atlas.stderr)")
        let settings = try run(["settings", "list"])
        #expect(settings.status == 0, "a shipped module's library from before the change: \(settings.stderr)")
        #expect(try run(["check"]).status == 0)

        // The other way round: this release's host refuses Atlas, which may use what the later
        // minor added, before any of its code runs.
        let refused = try modhost(["--config", config, "--data-dir", data, "modules"])
        #expect(
            refused.stdout.contains(
                "    reason: library '\(host)/.build/debug/libAtlas.so' was built against SDK \(nextMinor); this host has SDK \(record.sdk), which lacks what \(nextMinor.dropLast(2)) added: update modhost to a release of SDK \(nextMinor.dropLast(2)) or later"
            ), "\(refused.stdout)")
    }

    @Test func aBreakingChangeFailsTheGateAndAModuleThatNeedsWhatWentIsRefusedByName() throws {
        let folder = try TestEnvironment.temporaryFolder()
        let kit = folder + "/kit"
        try SourceTree.copy(from: TestEnvironment.repository + "/Sources/ModuleKit", to: kit)
        // One declaration gone (kept inside under another name: a debug build exports
        // internal symbols for testing), one changed; the version left as it was.
        let client = kit + "/Sources/ModuleKit/Networking/HTTPClient.swift"
        try SourceTree.edit(
            client,
            [
                ("detail: Self.describe(error))", "detail: Self.summary(of: error))"),
                (
                    "    public static func describe(_ error: any Error) -> String {",
                    "    static func summary(of error: any Error) -> String {"
                ),
                (
                    "public static func redacted(_ url: String) -> String {",
                    "public static func redacted(_ url: String, keepingHost: Bool = true) -> String {"
                ),
            ])
        let built = try SourceTree.swift(["build", "--package-path", kit])
        try #require(built.status == 0, "\(built.stdout.suffix(3000))\n\(built.stderr.suffix(3000))")

        let gate = try Self.gate(kit: kit, modules: kit + "/.build/debug/Modules")
        #expect(gate.status == 1, "\(gate.stdout)\n\(gate.stderr)")
        #expect(gate.stdout.contains("error: changes that break modules built against \(record.sdk)"), "\(gate.stdout)")
        #expect(gate.stdout.contains("  ModuleKit (api): func HTTPClient.describe(_:) has been removed\n"), "\(gate.stdout)")
        #expect(
            gate.stdout.contains("  ModuleKit (api): func HTTPClient.redacted(_:) has been renamed to func redacted(_:keepingHost:)\n"),
            "\(gate.stdout)")
        #expect(!gate.stdout.contains("Additions"))
        // Had the version said 2.0.0, the break would be allowed, but not the removal of what
        // no 1.x release deprecated.
        let next = "\((Int(record.sdk.prefix { $0 != "." }) ?? 1) + 1).0.0"
        let major = try Self.header(in: folder + "/major", version: next)
        let majorGate = try Self.gate(kit: major, modules: kit + "/.build/debug/Modules", baseline: kit + "/SDKBaseline")
        #expect(majorGate.status == 1)
        #expect(majorGate.stdout.contains("(allowed: the major is now \(next.prefix { $0 != "." }))"), "\(majorGate.stdout)")
        #expect(
            majorGate.stdout.contains(
                "error: removed without being deprecated in a \(record.sdk.prefix { $0 != "." }).x release first"), "\(majorGate.stdout)")
        #expect(majorGate.stdout.contains("  ModuleKit: func HTTPClient.describe(_:) has been removed\n"), "\(majorGate.stdout)")

        // This checkout's host, installed with that kit: FixtureRouteUser needs the function
        // that went, and is refused with its Swift name; Geo, which does not, runs.
        let install = folder + "/install"
        try FileManager.default.createDirectory(atPath: install, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestEnvironment.modhost, toPath: install + "/modhost")
        try FileManager.default.copyItem(
            atPath: TestEnvironment.buildFolder + "/ModuleHost_HostModel.resources", toPath: install + "/ModuleHost_HostModel.resources")
        for library in ["libModuleKit.so", "libContracts.so"] {
            try FileManager.default.copyItem(atPath: kit + "/.build/debug/" + library, toPath: install + "/" + library)
        }
        let config = try TestEnvironment.write(
            """
            {"environment": "test", "modules": [
              {"name": "Geo", "enabled": true, "library": "\(TestEnvironment.library("Geo"))"},
              {"name": "FixtureRouteUser", "enabled": true, "library": "\(TestEnvironment.library("FixtureRouteUser"))"}
            ]}
            """)
        let data = try TestEnvironment.temporaryFolder()
        let modules = try ChildProcess.run(install + "/modhost", ["--config", config, "--data-dir", data, "modules"])
        #expect(modules.status == 0, "\(modules.stderr)")
        #expect(modules.stdout.split(separator: "\n").contains { $0.hasPrefix("Geo ") && $0.contains(" active ") }, "\(modules.stdout)")
        #expect(
            modules.stdout.contains(
                "    reason: library '\(TestEnvironment.library("FixtureRouteUser"))' needs 'static ModuleKit.HTTPClient.describe(Swift.Error) -> Swift.String' from ModuleKit, which this host's kit (SDK \(record.sdk)) does not have: the module was built against a kit that is not a release of SDK \(record.sdk)"
            ), "\(modules.stdout)")
        let command = try ChildProcess.run(install + "/modhost", ["--config", config, "--data-dir", data, "fixturerouteuser", "cities"])
        #expect(command.status != 0)
        #expect(!command.signaled, "refused, never a crash")
        #expect(command.stderr.contains("needs 'static ModuleKit.HTTPClient.describe(Swift.Error) -> Swift.String'"), "\(command.stderr)")
        #expect(!command.stderr.contains("$s"), "no mangled symbol")
    }

    // MARK: - The gate and the packages the tests build

    /// `Scripts/check-sdk.sh` on `kit`'s header and the modules built in `modules`.
    static func gate(kit: String, modules: String, baseline: String? = nil) throws -> ProcessResult {
        let arguments = ["--kit", kit, "--modules", modules] + (baseline.map { ["--baseline", $0] } ?? [])
        return try ChildProcess.run(
            "/usr/bin/env", ["bash", TestEnvironment.repository + "/Scripts/check-sdk.sh"] + arguments, deadline: 300)
    }

    /// A folder holding only this checkout's `modhost_abi.h` with the SDK version `version`:
    /// what the gate reads a kit's version from.
    static func header(in folder: String, version: String) throws -> String {
        let include = folder + "/Sources/CModuleABI/include"
        try FileManager.default.createDirectory(atPath: include, withIntermediateDirectories: true)
        let path = "/Sources/CModuleABI/include/modhost_abi.h"
        let header = try String(contentsOfFile: TestEnvironment.repository + "/Sources/ModuleKit" + path, encoding: .utf8)
        let current = try #require(header.split(separator: "\n").first { $0.hasPrefix("#define MODHOST_SDK_VERSION ") })
        try Data(header.replacingOccurrences(of: current, with: "#define MODHOST_SDK_VERSION \"\(version)\"").utf8)
            .write(to: URL(fileURLWithPath: folder + path))
        return folder
    }

    /// A host package from this checkout's host sources and the kit copy beside it, with one
    /// module of its own, Atlas, built against that kit: it provides GeoRoute and uses what the
    /// later minor added. Named "ModuleHost" so the host finds its strings where it expects them.
    static func writeHostPackage(at host: String) throws {
        let targets = [
            "HostModel", "HostGraph", "HostLoading", "HostLifecycle", "HostApp", "HostCommandLine", "HostProcesses", "HostIsolation",
            "CHostGuard", "CLibraryFile", "CHostProcess", "HostSandbox", "CHostSandbox", "modhost",
        ]
        for target in targets {
            try SourceTree.copy(from: TestEnvironment.repository + "/Sources/" + target, to: host + "/Sources/" + target)
        }
        try FileManager.default.createDirectory(atPath: host + "/Sources/Atlas", withIntermediateDirectories: true)
        let files = [
            "Package.swift": """
            // swift-tools-version: 6.0
            import PackageDescription

            let moduleKit: Target.Dependency = .product(name: "ModuleKit", package: "ModuleKit")
            let contracts: Target.Dependency = .product(name: "Contracts", package: "ModuleKit")
            let moduleABI: Target.Dependency = .product(name: "CModuleABI", package: "ModuleKit")
            let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

            let package = Package(
                name: "ModuleHost",
                products: [
                    .executable(name: "modhost", targets: ["modhost"]),
                    .library(name: "Atlas", type: .dynamic, targets: ["Atlas"]),
                ],
                dependencies: [.package(name: "ModuleKit", path: "../kit")],
                targets: [
                    .target(name: "CHostGuard", linkerSettings: [.linkedLibrary("pthread")]),
                    .target(name: "CLibraryFile", linkerSettings: [.linkedLibrary("dl")]),
                    .target(name: "CHostProcess"),
                    .target(name: "CHostSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
                    .target(name: "HostSandbox", dependencies: ["CHostSandbox", "HostProcesses"], swiftSettings: settings),
                    .target(
                        name: "HostModel", dependencies: [moduleKit, contracts, "CLibraryFile"], resources: [.copy("Resources/Strings")],
                        swiftSettings: settings),
                    .target(name: "HostGraph", dependencies: ["HostModel", moduleKit, contracts], swiftSettings: settings),
                    .target(
                        name: "HostLoading", dependencies: ["HostModel", moduleKit, contracts, moduleABI, "CHostGuard", "CLibraryFile"],
                        swiftSettings: settings),
                    .target(
                        name: "HostIsolation", dependencies: ["HostProcesses", moduleKit, contracts], swiftSettings: settings,
                        plugins: [.plugin(name: "RouteBridgePlugin", package: "ModuleKit")]),
                    .target(
                        name: "HostLifecycle",
                        dependencies: [
                            "HostModel", "HostGraph", "HostLoading", "HostIsolation", "HostProcesses", "HostSandbox", moduleKit, contracts,
                        ],
                        swiftSettings: settings),
                    .target(name: "HostApp", dependencies: ["HostLifecycle", "HostIsolation", moduleKit, contracts, "CHostGuard"], swiftSettings: settings),
                    .target(name: "HostProcesses", dependencies: ["CHostProcess"], swiftSettings: settings),
                    .target(
                        name: "HostCommandLine",
                        dependencies: [
                            "HostModel", "HostGraph", "HostLoading", "HostLifecycle", "HostApp", "HostProcesses", "HostIsolation",
                            "HostSandbox", moduleKit, contracts, "CHostGuard",
                        ],
                        swiftSettings: settings),
                    .executableTarget(name: "modhost", dependencies: ["HostCommandLine"], swiftSettings: settings),
                    .target(
                        name: "Atlas", dependencies: [moduleKit, contracts], exclude: ["module.manifest"], swiftSettings: settings,
                        plugins: [.plugin(name: "ModuleDescriptorPlugin", package: "ModuleKit")]),
                ]
            )

            """,
            "Sources/Atlas/module.manifest": "type AtlasModule\nname Atlas\nversion 1.0.0\nimport Contracts\nprovides GeoRoute\n",
            "Sources/Atlas/AtlasModule.swift": """
            import Contracts
            import ModuleKit

            final class AtlasModule: Module {
                init() {}

                func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
                    try registry.route((any GeoRoute).self, .singleton(AtlasCities()))
                }

                func commands(_ context: ModuleContext) -> [ModuleCommand] {
                    [
                        ModuleCommand(name: "pages", summary: "Pages and cities", usage: "pages") { _ in
                            let route: any GeoRoute = AtlasCities()
                            context.ui.print("\\(laterAtlas().pages) pages, \\(try route.cityCount()) cities")
                        }
                    ]
                }
            }

            final class AtlasCities: GeoRoute {
                func savedCities() throws -> [SavedCity] { [SavedCity(country: "FR", countryName: "France", city: "Paris")] }

                @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void) { completion(nil) }
            }

            @_cdecl("modhost_module_entry")
            public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(AtlasModule.self, request) }

            """,
        ]
        for (path, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: host + "/" + path))
        }
    }
}
