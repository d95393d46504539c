import FoundationEssentials
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
        let option = GeoOptions(strings)
        return [
            ModuleCommand(name: "list", summary: strings[.cmdListSummary], options: [option.json], example: "modhost geo list --json") {
                let arguments = try CommandArguments($0.arguments, options: [option.json])
                let places = try interactor()
                if arguments.has(option.json) {
                    try Self.writeJSON(places: places, context: context)
                } else {
                    let groups = try places.groups()
                    if groups.isEmpty { context.ui.print(strings[.placesEmpty]) }
                    for group in groups {
                        context.ui.print("\(group.country.name) (\(group.country.code))")
                        for city in group.cities { context.ui.print("  \(city.name)") }
                    }
                }
            },
            ModuleCommand(
                name: "add", summary: strings[.cmdAddSummary], options: [option.country, option.city],
                example: "modhost geo add --country FR --city Lyon"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.country, option.city])
                let city = try arguments.required(option.city)
                // Settings holds the default as a country code, checked when it was set.
                guard let country = arguments.value(option.country) ?? GeoModule.defaultCountry(context) else {
                    throw CommandUsageError(strings[.errorNeedsCountry])
                }
                let places = try interactor()
                let added = try places.add(country: country, city: city)
                context.ui.print(strings.format(.added, added.name, places.countryName(added.country)))
            },
            ModuleCommand(
                name: "rename", summary: strings[.cmdRenameSummary], options: [option.countryOf, option.city, option.to],
                example: "modhost geo rename --country FR --city Lyon --to Lugdunum"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.countryOf, option.city, option.to])
                let (country, city, new) = (
                    try arguments.required(option.countryOf), try arguments.required(option.city), try arguments.required(option.to)
                )
                let places = try interactor()
                let renamed = try places.rename(country: country, city: city, to: new)
                context.ui.print(strings.format(.renamed, city.trimmingSpaces(), renamed.name))
            },
            ModuleCommand(
                name: "remove", summary: strings[.cmdRemoveSummary], options: [option.countryOf, option.city, option.yes],
                example: "modhost geo remove --country FR --city Lyon --yes"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.countryOf, option.city, option.yes])
                let (country, city) = (try arguments.required(option.countryOf), try arguments.required(option.city))
                let places = try interactor()
                if !arguments.has(option.yes) {
                    guard context.ui.terminal.isInteractive else { throw CommandUsageError(strings[.errorNeedsYes]) }
                    guard context.ui.confirm(strings[.deleteTitle], strings.format(.deleteMessage, city, country)) else {
                        throw CommandFailure(strings[.deleteCancelled])
                    }
                }
                let removed = try places.remove(country: country, city: city)
                context.ui.print(strings.format(.removed, removed.name, places.countryName(removed.country)))
            },
        ]
    }

    /// `[{"city":"Lyon","country":"FR","countryName":"France"},…]` (the kit's JSON format).
    /// The cities are grouped and sorted in memory (a sort needs them all); the document is
    /// streamed as it is written, so the text of a large list is never held whole.
    @MainActor
    static func writeJSON(places: PlacesInteractor, context: ModuleContext) throws {
        struct Row: Encodable {
            let city: String
            let country: String
            let countryName: String
        }
        let locale = context.locale.current
        var names: [String: String] = [:]
        let groups = try places.groups()
        JSONOutput.streamDocument("cities", to: context.ui.terminal.write) { (add: (Row) -> Void) in
            for group in groups {
                let name = names[group.country.code] ?? places.regions.name(of: group.country.code, locale: locale)
                names[group.country.code] = name
                for city in group.cities { add(Row(city: city.name, country: city.country, countryName: name)) }
            }
        }
    }
}

/// Geo's refusals reach a person in their language through the host.
extension GeoError: ModuleError {}

/// Geo's command options, each declared once: a command's usage, its help and its parser all
/// read these.
struct GeoOptions {
    let json, country, city, to, yes: CommandOption
    /// `--country` where it names the city's country (rename, remove), which those need.
    let countryOf: CommandOption

    init(_ strings: ModuleStrings) {
        json = CommandOption("--json", strings[.optJson])
        country = CommandOption("--country C", strings[.optCountry])
        countryOf = .required(country.usage, strings[.optCountryof])
        city = .required("--city NAME", strings[.optCity])
        to = .required("--to NEW", strings[.optTo])
        yes = CommandOption("--yes", strings[.optYes])
    }
}
