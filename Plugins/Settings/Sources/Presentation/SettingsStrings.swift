import ModuleKit

/// Settings' string keys; the texts are in Resources/Strings.
extension StringKey {
    static let homeEntry: StringKey = "home.settings"
    static let title: StringKey = "settings.title"
    static let profileName: StringKey = "profile.name"
    static let profilePassword: StringKey = "profile.password"
    static let language: StringKey = "settings.language"
    static let about: StringKey = "settings.about"
    static let stateActive: StringKey = "state.active"
    static let stateDisabled: StringKey = "state.disabled"
    static let stateFailed: StringKey = "state.failed"
    static let stateSkipped: StringKey = "state.skipped"
    static let help: StringKey = "settings.help"
    static let check: StringKey = "settings.check"
    static let checkIntro: StringKey = "check.intro"
    static let checkUnavailable: StringKey = "check.unavailable"
    static let logOut: StringKey = "settings.logout"
    static let logOutTitle: StringKey = "logout.confirm.title"
    static let logOutMessage: StringKey = "logout.confirm.message"
    static let newValue: StringKey = "prompt.value"
    static let newValueDetails: StringKey = "prompt.value.details"
    static let valueNow: StringKey = "value.now"
    static let valueDefault: StringKey = "value.default"
    static let ruleRange: StringKey = "rule.range"
    static let ruleLength: StringKey = "rule.length"
    static let fieldNameNow: StringKey = "field.name.now"
    static let unchanged: StringKey = "result.unchanged"
    static let stillLoggedIn: StringKey = "logout.kept"
    static let saved: StringKey = "result.saved"
    static let savedValue: StringKey = "result.saved.value"
    static let loggedOut: StringKey = "result.loggedout"
    static let settingLine: StringKey = "setting.line"
    static let settingUnfit: StringKey = "setting.unfit"
    static let settingNotSet: StringKey = "setting.not.set"
    static let valueOn: StringKey = "value.on"
    static let valueOff: StringKey = "value.off"
    static let aboutHost: StringKey = "about.host"
    static let aboutEnvironment: StringKey = "about.environment"
    static let aboutData: StringKey = "about.data"
    static let aboutModules: StringKey = "about.modules"
    static let helpReadme: StringKey = "help.readme"
    static let helpCommands: StringKey = "help.commands"
    static let fieldName: StringKey = "field.name"
    static let fieldCurrent: StringKey = "field.password.current"
    static let fieldNew: StringKey = "field.password.new"
    static let errorUnknownKey: StringKey = "error.key.unknown"
    static let errorUnknownKeySuggest: StringKey = "error.key.unknown.suggest"
    static let errorToggle: StringKey = "error.toggle"
    static let errorChoice: StringKey = "error.choice"
    static let errorNumber: StringKey = "error.number"
    static let errorTooLong: StringKey = "error.too.long"
    static let errorControl: StringKey = "error.control"
    static let errorStorage: StringKey = "error.storage"
    static let errorFailed: StringKey = "error.failed"
    static let cmdListSummary: StringKey = "command.list"
    static let optJson: StringKey = "option.json"
    static let cmdGetSummary: StringKey = "command.get"
    static let cmdSetSummary: StringKey = "command.set"
    static let usageGet: StringKey = "usage.get"
    static let usageSet: StringKey = "usage.set"
}

extension SettingsError {
    public func message(_ strings: ModuleStrings) -> String {
        switch self {
        case .unknownKey(let key, let suggestion?): strings.format(.errorUnknownKeySuggest, key, suggestion)
        case .unknownKey(let key, nil): strings.format(.errorUnknownKey, key)
        case .notAToggle(let text): strings.format(.errorToggle, text)
        case .notAChoice(let text, let options): strings.format(.errorChoice, text, options.joined(separator: ", "))
        case .notANumber(let text, let range): strings.format(.errorNumber, text, "\(range.lowerBound)", "\(range.upperBound)")
        case .outOfRange(let number, let range): strings.format(.errorNumber, "\(number)", "\(range.lowerBound)", "\(range.upperBound)")
        case .tooLong(let limit): strings.format(.errorTooLong, "\(limit)")
        case .controlCharacters: strings[.errorControl]
        case .storage(let detail): strings.format(.errorStorage, detail)
        case .refused(let message): message
        }
    }
}
