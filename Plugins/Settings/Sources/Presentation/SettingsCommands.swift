import Contracts
import FoundationEssentials
import ModuleKit

/// `modhost settings list [--json] | get KEY | set KEY VALUE`.
struct SettingsCommands {
    let service: SettingsService
    let context: ModuleContext

    var all: [ModuleCommand] { [list, get, set] }

    private var list: ModuleCommand {
        let (service, context) = (self.service, self.context)
        let strings = context.strings
        let json = CommandOption("--json", strings[.optJson])
        return ModuleCommand(name: "list", summary: strings[.cmdListSummary], options: [json], example: "modhost settings list") {
            (invocation: CommandInvocation) throws in
            let arguments = try CommandArguments(invocation.arguments, options: [json])
            let rows = Self.rows(service)
            if arguments.has(json) {
                context.ui.print(JSONOutput.document("settings", rows))
            } else {
                for row in rows {
                    // An unset value says so; `--json` keeps it empty.
                    let value = row.value.isEmpty ? strings[.settingNotSet] : row.value
                    context.ui.print("\(row.key) = \(value)    (\(row.title))")
                    if let unfit = row.unusableStoredValue { context.ui.print("    " + strings.format(.settingUnfit, row.value, unfit)) }
                }
            }
        }
    }

    private var get: ModuleCommand {
        let (service, context) = (self.service, self.context)
        let strings = context.strings
        return ModuleCommand(
            name: "get", summary: strings[.cmdGetSummary], arguments: "KEY", options: [], example: "modhost settings get settings.language"
        ) {
            (invocation: CommandInvocation) throws in
            guard invocation.arguments.count == 1 else { throw CommandUsageError(strings[.usageGet]) }
            let (name, definition) = try service.setting(named: invocation.arguments[0])
            context.ui.print(Self.row(name, definition, service).value)
        }
    }

    private var set: ModuleCommand {
        let (service, context) = (self.service, self.context)
        let strings = context.strings
        return ModuleCommand(
            name: "set", summary: strings[.cmdSetSummary], arguments: "KEY VALUE", options: [],
            example: "modhost settings set geo.defaultCountry FR"
        ) {
            (invocation: CommandInvocation) throws in
            guard invocation.arguments.count == 2 else {
                throw CommandUsageError(strings[.usageSet])
            }
            let name = try service.setting(named: invocation.arguments[0]).name
            let value = try service.set(name, to: invocation.arguments[1])
            // The setting's own name, however it was typed (`PHOTOS.perPage` is `photos.perPage`).
            context.ui.print("\(name.text) = \(SettingsRegistry.text(value))")
        }
    }

    struct Row: Encodable {
        let key: String
        let title: String
        let value: String
        let defaultValue: String
        /// A stored value that no longer fits the setting (the default is used instead).
        let unusableStoredValue: String?

        enum CodingKeys: String, CodingKey {
            case key, title, value
            case defaultValue = "default"
            case unusableStoredValue = "unusableStored"
        }
    }

    static func rows(_ service: SettingsService) -> [Row] {
        service.registry.entries.map { row($0.name, $0.definition, service) }
    }

    private static func row(_ name: SettingName, _ definition: SettingDefinition, _ service: SettingsService) -> Row {
        Row(
            key: name.text, title: definition.title(),
            value: SettingsRegistry.text(service.value(of: name) ?? definition.defaultValue),
            defaultValue: SettingsRegistry.text(definition.defaultValue),
            unusableStoredValue: service.unfitStoredValue(of: name).map(SettingsRegistry.text))
    }
}

/// Settings' refusals reach a person in their language through the host.
extension SettingsError: ModuleError {}
