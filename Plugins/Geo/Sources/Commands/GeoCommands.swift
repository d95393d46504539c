import Foundation
import ModuleKit

/// `modhost geo list [--json] | add | rename | remove`.
struct GeoCommands {
    let context: ModuleContext

    var all: [ModuleCommand] {
        let context = self.context
        let strings = context.strings
        @Sendable func interactor() throws -> PlacesInteractor {
            try PlacesInteractor(resolver: context.resolver, locale: context.locale)
        }
        @Sendable func run<T>(_ body: () throws(GeoError) -> T) throws -> T {
            do {
                return try body()
            } catch {
                throw GeoCommandFailure(description: error.message(strings))
            }
        }
        return [
            ModuleCommand(name: "list", summary: "List saved cities by country", usage: "list [--json]") {
                let arguments = try CommandArguments($0.arguments, options: [], flags: ["--json"])
                let places = try interactor()
                if arguments.has("--json") {
                    try Self.writeJSON(places: places, context: context)
                } else {
                    let groups = try places.groups()
                    if groups.isEmpty { context.ui.print(strings[.placesEmpty]) }
                    for group in groups {
                        context.ui.print("\(group.country.name) (\(group.country.code))")
                        for city in group.cities { context.ui.print("  \(city.name)") }
                    }
                }
                return 0
            },
            ModuleCommand(name: "add", summary: "Save a city", usage: "add [--country C] --city NAME") {
                let arguments = try CommandArguments($0.arguments, options: ["--country", "--city"], flags: [])
                let city = try arguments.required("--city")
                guard let country = arguments.values["--country"] ?? GeoModule.defaultCountry(context) else {
                    throw CommandUsageError(strings[.errorNeedsCountry])
                }
                let places = try interactor()
                let added = try run { () throws(GeoError) in try places.add(country: country, city: city) }
                context.ui.print(strings.format(.added, added.name, places.countryName(added.country)))
                return 0
            },
            ModuleCommand(name: "rename", summary: "Rename a saved city", usage: "rename --country C --city NAME --to NEW") {
                let arguments = try CommandArguments($0.arguments, options: ["--country", "--city", "--to"], flags: [])
                let (country, city, new) = (
                    try arguments.required("--country"), try arguments.required("--city"), try arguments.required("--to")
                )
                let places = try interactor()
                let renamed = try run { () throws(GeoError) in try places.rename(country: country, city: city, to: new) }
                context.ui.print(strings.format(.renamed, renamed.name))
                return 0
            },
            ModuleCommand(name: "remove", summary: "Delete a saved city", usage: "remove --country C --city NAME [--yes]") {
                let arguments = try CommandArguments($0.arguments, options: ["--country", "--city"], flags: ["--yes"])
                let (country, city) = (try arguments.required("--country"), try arguments.required("--city"))
                let places = try interactor()
                if !arguments.has("--yes") {
                    guard context.ui.terminal.isInteractive else { throw CommandUsageError(strings[.errorNeedsYes]) }
                    guard context.ui.confirm(strings[.deleteTitle], strings.format(.deleteMessage, city, country)) else { return 1 }
                }
                let removed = try run { () throws(GeoError) in try places.remove(country: country, city: city) }
                context.ui.print(strings.format(.removed, removed.name))
                return 0
            },
        ]
    }

    /// `[{"country": "FR", "countryName": "France", "city": "Lyon"}, …]`, written as it is read
    /// so a large list is never held whole.
    static func writeJSON(places: PlacesInteractor, context: ModuleContext) throws {
        var output = "["
        var first = true
        let locale = context.locale.current
        var names: [String: String] = [:]
        for group in try places.groups() {
            let name = names[group.country.code] ?? places.regions.name(of: group.country.code, locale: locale)
            names[group.country.code] = name
            for city in group.cities {
                output += (first ? "\n  " : ",\n  ")
                output +=
                    "{\"city\": \(jsonString(city.name)), \"country\": \(jsonString(city.country)), \"countryName\": \(jsonString(name))}"
                first = false
                if output.utf8.count > 1 << 16 {
                    context.ui.terminal.write(output)
                    output = ""
                }
            }
        }
        output += first ? "]\n" : "\n]\n"
        context.ui.terminal.write(output)
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

struct GeoCommandFailure: Error, CustomStringConvertible {
    let description: String
}
