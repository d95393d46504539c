import Testing

@testable import HostLoading
@testable import HostModel

/// The rules the host decides a module's fate by, before any of its code runs: the SDK major
/// must match, the minor may not be newer, the compiler must be the same; and a missing
/// symbol is told in Swift's words.
@Suite struct SDKVersionRulesTests {
    @Test(arguments: ["1.0.0", "0.0.0", "12.34.56"])
    func aVersionIsThreeNumbers(text: String) throws {
        #expect(try #require(SDKVersion(text)).description == text)
    }

    @Test(arguments: ["", "1", "1.0", "1.0.0.0", "01.0.0", "1.0.0-beta", "1.a.0", "1..0", " 1.0.0", "1.0.0\n", "9999999999.0.0"])
    func anythingElseIsNotAVersion(text: String) {
        #expect(SDKVersion(text) == nil)
    }

    @Test func theMajorMustMatchAndTheMinorMayNotBeNewer() throws {
        func fit(_ built: String, _ held: String) throws -> SDKVersion.Fit {
            SDKVersion.fit(built: try #require(SDKVersion(built)), held: try #require(SDKVersion(held)))
        }
        #expect(try fit("1.0.0", "1.0.0") == .fits)
        #expect(try fit("1.0.9", "1.0.0") == .fits, "a patch is implementation only")
        #expect(try fit("1.2.0", "1.5.3") == .fits)
        #expect(try fit("1.6.0", "1.5.3") == .newerMinor)
        #expect(try fit("2.0.0", "1.5.3") == .otherMajor)
        #expect(try fit("1.9.0", "2.0.0") == .otherMajor)
        #expect(try SDKVersion.fit(built: #require(SDKVersion("1.10.0")), held: #require(SDKVersion("1.9.0"))) == .newerMinor)
        #expect(try #require(SDKVersion("1.10.0")) > #require(SDKVersion("1.9.9")))
    }

    private func descriptor(sdk: String?, compiler: String?) -> ModuleDescriptor {
        ModuleDescriptor(
            abiVersion: 2, sdkVersion: sdk, compiler: compiler, name: "Notes", version: "1.0.0", provides: [], requires: [], uses: [])
    }

    private let host = SDKCompatibility.Host(sdk: "1.3.0", compiler: "Swift version 6.3.1", kitFolder: { "/src/kit" })
    private let rebuild = HostText.plain("; in its package: 'swift build --product Notes'")

    @Test func aFittingModuleHasNoProblemAndNeverAsksHowToRebuild() {
        var asked = false
        let problem = SDKCompatibility.problem(
            with: descriptor(sdk: "1.2.0", compiler: "Swift version 6.3.1"), host: host,
            rebuild: {
                asked = true
                return .plain("")
            })
        #expect(problem == nil)
        #expect(!asked, "the advice looks at folders: only a refusal builds it")
    }

    @Test func eachRefusalNamesBothVersionsAndTheFix() {
        func reason(_ sdk: String?, _ compiler: String? = "Swift version 6.3.1") -> String? {
            SDKCompatibility.problem(with: descriptor(sdk: sdk, compiler: compiler), host: host, rebuild: { rebuild })?.description
        }
        let kit = "; this host's kit is '/src/kit' (the 'let kit' line of the module's Package.swift names the kit it builds against)"
        #expect(
            reason("1.4.0")
                == "was built against SDK 1.4.0; this host has SDK 1.3.0, which lacks what 1.4 added: update modhost to a release of SDK 1.4 or later"
        )
        #expect(
            reason("2.1.0")
                == "was built against SDK 2.1.0; this host has SDK 1.3.0: a module runs only in a host of the SDK major it was built against (2.x): update modhost, or rebuild the module against this host's kit\(kit); in its package: 'swift build --product Notes'"
        )
        #expect(
            reason("0.9.0")
                == "was built against SDK 0.9.0; this host has SDK 1.3.0: a module runs only in a host of the SDK major it was built against (0.x): rebuild the module against this host's kit\(kit); in its package: 'swift build --product Notes'"
        )
        #expect(
            reason("1.3.0", "Swift version 6.2")
                == "was built by 'Swift version 6.2', this host's kit by 'Swift version 6.3.1': Swift keeps modules binary compatible on Linux only between builds of one compiler; rebuild the module with 'Swift version 6.3.1'\(kit); in its package: 'swift build --product Notes'"
        )
        #expect(
            reason("0.2.0", nil)
                == "was built against ModuleKit SDK 0.2.0, before SDK 1.0.0 gave the kit a stable binary interface; this host has SDK 1.3.0: rebuild the module against this host's kit\(kit); in its package: 'swift build --product Notes'"
        )
        #expect(reason(nil, nil)?.hasPrefix("was built against ModuleKit without an SDK version, before SDK 1.0.0") == true)
    }

    @Test func aMissingSymbolIsToldInSwiftsWords() throws {
        let kit = try #require(
            MissingSymbol(dynamicLinkerMessage: "/proc/self/fd/7: undefined symbol: $s9ModuleKit10HTTPClientC8describeySSs5Error_pFZ"))
        #expect(kit.readable == "static ModuleKit.HTTPClient.describe(Swift.Error) -> Swift.String")
        #expect(kit.module == "ModuleKit")
        #expect(
            kit.reason(rebuild: rebuild, kitFolder: "/src/kit").description.hasPrefix(
                "needs 'static ModuleKit.HTTPClient.describe(Swift.Error) -> Swift.String' from ModuleKit, which this host's kit (SDK "))
        let other = try #require(MissingSymbol(dynamicLinkerMessage: "libNotes.so: undefined symbol: notes_helper, version NOTES_1"))
        #expect(other.readable == "notes_helper")
        #expect(other.module == nil)
        #expect(
            other.reason(rebuild: rebuild).description
                == "needs 'notes_helper', which no library in this process has: ship it with the libraries it was built with (a contracts library of the same version, say); in its package: 'swift build --product Notes'"
        )
        #expect(MissingSymbol(dynamicLinkerMessage: "libNotes.so: cannot open shared object file: No such file or directory") == nil)
    }
}
