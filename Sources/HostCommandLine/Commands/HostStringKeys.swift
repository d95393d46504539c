import ModuleKit

/// The command line's string keys; the texts are in the host's strings (HostModel).
extension StringKey {
    static let helpUsage: StringKey = "help.usage"
    static let helpOptions: StringKey = "help.options"
    static let helpExample: StringKey = "help.example"
    static let helpCommands: StringKey = "help.commands"
    static let helpNone: StringKey = "help.none"
    static let helpMore: StringKey = "help.more"
    static let helpSeeCommand: StringKey = "help.see.command"
    static let helpCommandWord: StringKey = "help.command.word"
    static let labelError: StringKey = "label.error"
    static let commandNeeded: StringKey = "command.needed"
    static let moduleInactive: StringKey = "module.inactive"
    static let checkValid: StringKey = "check.valid"
    static let checkReady: StringKey = "check.ready"
    static let inactiveDisabled: StringKey = "module.inactive.disabled"
    static let inactiveFailed: StringKey = "module.inactive.failed"
    static let inactiveSkipped: StringKey = "module.inactive.skipped"
    static let reasonNone: StringKey = "module.reason.none"
    static let commandUnknown: StringKey = "command.unknown"
    static let commandUnknownSuggest: StringKey = "command.unknown.suggest"
    static let hostCommandUnknown: StringKey = "host.command.unknown"
    static let hostCommandUnknownSuggest: StringKey = "host.command.unknown.suggest"
    static let labelWarning: StringKey = "label.warning"
}
