import Contracts
import Testing

/// The typed words of Contracts (SDK 1.7.0): a setting's whole name and a module's state, and
/// the string forms they replace, which modules built before keep using.
@Suite struct ContractsWordsTests {
    @Test func aSettingNameIsWrittenAndReadInOnePlace() throws {
        let name = SettingName(module: "Photos", key: "perPage")
        #expect(name.text == "photos.perPage")
        #expect(SettingName(text: "PHOTOS.perPage") == name)
        #expect(Set([name, SettingName(module: "photos", key: "perPage")]).count == 1)
        #expect(SettingName(text: "photos.perpage") != name, "keys keep their case")
        // The first dot ends the module: a key may hold dots of its own.
        #expect(SettingName(text: "settings.language.environment")?.key == "language.environment")
        for refused in ["", "photos", ".perPage", "photos."] { #expect(SettingName(text: refused) == nil, "\(refused)") }
        #expect(SettingKey<Int>("perPage", module: "Photos").name == name)
    }

    /// A conformance written before 1.7.0 implements only `value(of:module:)`; one written
    /// after also answers `value(of:)` itself: each answers both forms and typed reads.
    @Test func bothFormsOfTheSettingsRouteAnswer() {
        struct Before: SettingsRoute {
            func register(_ definitions: [SettingDefinition], module: String) {}
            func value(of key: String, module: String) -> SettingValue? { module == "Photos" && key == "perPage" ? .int(20) : nil }
        }
        struct After: SettingsRoute {
            func register(_ definitions: [SettingDefinition], module: String) {}
            func value(of name: SettingName) -> SettingValue? { name == SettingName(module: "photos", key: "perPage") ? .int(20) : nil }
            func value(of key: String, module: String) -> SettingValue? { value(of: SettingName(module: module, key: key)) }
        }
        let perPage = SettingKey<Int>("perPage", module: "Photos")
        for route in [Before() as any SettingsRoute, After()] {
            #expect(route.value(of: perPage.name) == .int(20))
            #expect(route.value(of: "perPage", module: "Photos") == .int(20))
            #expect(route.value(perPage) == 20)
            #expect(route.value(of: SettingName(module: "Photos", key: "other")) == nil)
        }
    }

    @Test func aModuleStateIsTypedAndItsWordStillReads() {
        let status = ModuleStatus(name: "Geo", state: .skipped, reason: "requires AuthRoute", version: "1.0.0")
        #expect(status.moduleState == .skipped)
        #expect(ModuleState.allCases.map(\.rawValue) == ["active", "disabled", "failed", "skipped"])
        #expect(legacyWord(of: status) == "skipped")
        #expect(legacyStatus(state: "disabled").moduleState == .disabled)
        #expect(legacyStatus(state: "resting").moduleState == .failed, "a word this SDK does not know")
    }

    private var legacy: any LegacyCaller { LegacyModule() }
    private func legacyWord(of status: ModuleStatus) -> String { legacy.word(of: status) }
    private func legacyStatus(state: String) -> ModuleStatus { legacy.status(state: state) }
}

/// What a module built before 1.7.0 calls, reached through a protocol so that the test itself
/// does not use what is deprecated.
private protocol LegacyCaller {
    func word(of status: ModuleStatus) -> String
    func status(state: String) -> ModuleStatus
}

private struct LegacyModule: LegacyCaller {
    @available(*, deprecated)
    func word(of status: ModuleStatus) -> String { status.state }
    @available(*, deprecated)
    func status(state: String) -> ModuleStatus { ModuleStatus(name: "Geo", state: state, reason: nil, version: nil) }
}
