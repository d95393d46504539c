import Contracts
import Foundation
import ModuleKit

/// `modhost settings list [--json] | get KEY | set KEY VALUE`.
struct SettingsCommands {
    let service: SettingsService
    let context: ModuleContext

    var all: [ModuleCommand] { [list, get, set] }

    private var list: ModuleCommand {
        let (service, context) = (self.service, self.context)
        return ModuleCommand(name: "list", summary: "List every setting with its value", usage: "list [--json]") {
            (invocation: CommandInvocation) throws -> Int32 in
            let arguments = try CommandArguments(invocation.arguments, options: [], flags: ["--json"])
            let rows = Self.rows(service)
            if arguments.has("--json") {
                let objects = rows.map { ["key": $0.key, "title": $0.title, "value": $0.value, "default": $0.defaultValue] }
                let data =
                    (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
                context.ui.print(String(decoding: data, as: UTF8.self))
            } else {
                for row in rows { context.ui.print("\(row.key) = \(row.value)    (\(row.title))") }
            }
            return 0
        }
    }

    private var get: ModuleCommand {
        let (service, context) = (self.service, self.context)
        return ModuleCommand(name: "get", summary: "Print one setting", usage: "get KEY") {
            (invocation: CommandInvocation) throws -> Int32 in
            guard invocation.arguments.count == 1 else { throw CommandUsageError("get takes one KEY, such as settings.language") }
            guard let row = Self.rows(service).first(where: { $0.key.lowercased() == invocation.arguments[0].lowercased() }) else {
                let key = invocation.arguments[0]
                throw SettingsCommandFailure(
                    description: SettingsError.unknownKey(key, suggestion: SettingsService.nearest(key, service.registry.fullKeys)).message(
                        context.strings))
            }
            context.ui.print(row.value)
            return 0
        }
    }

    private var set: ModuleCommand {
        let (service, context) = (self.service, self.context)
        return ModuleCommand(name: "set", summary: "Change one setting", usage: "set KEY VALUE") {
            (invocation: CommandInvocation) throws -> Int32 in
            guard invocation.arguments.count == 2 else {
                throw CommandUsageError("set takes a KEY and a VALUE, such as: set settings.language fr")
            }
            do throws(SettingsError) {
                let value = try service.set(invocation.arguments[0], to: invocation.arguments[1])
                context.ui.print("\(invocation.arguments[0]) = \(SettingsRegistry.text(value))")
            } catch {
                throw SettingsCommandFailure(description: error.message(context.strings))
            }
            return 0
        }
    }

    struct Row {
        let key: String
        let title: String
        let value: String
        let defaultValue: String
    }

    static func rows(_ service: SettingsService) -> [Row] {
        service.registry.all.flatMap { section in
            section.definitions.map { definition in
                Row(
                    key: "\(section.module.lowercased()).\(definition.key)", title: definition.title(),
                    value: SettingsRegistry.text(service.value(of: definition.key, module: section.module) ?? definition.defaultValue),
                    defaultValue: SettingsRegistry.text(definition.defaultValue))
            }
        }
    }
}

struct SettingsCommandFailure: Error, CustomStringConvertible {
    let description: String
}
