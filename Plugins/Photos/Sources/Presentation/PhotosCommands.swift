import FoundationEssentials
import ModuleKit
import PhotosDomain

/// `modhost photos search QUERY [--page N] [--per-page N] [--json] | show ID | download ID [--to DIR]`.
struct PhotosCommands {
    let context: ModuleContext
    let perPage: Int

    var all: [ModuleCommand] { [search, show, download] }

    private var search: ModuleCommand {
        let (context, defaultPerPage) = (self.context, perPage)
        let strings = context.strings
        let (page, perPageOption, json) = (
            CommandOption("--page N", strings[.optPage]), CommandOption("--per-page N", strings[.optPerpage]),
            CommandOption("--json", strings[.optJson])
        )
        return ModuleCommand(
            name: "search", summary: strings[.cmdSearchSummary], arguments: "QUERY", options: [page, perPageOption, json],
            example: "modhost photos search \"red car\" --page 2"
        ) {
            (invocation: CommandInvocation) throws in
            let (words, rest) = Self.splitWords(invocation.arguments)
            let arguments = try CommandArguments(rest, options: [page, perPageOption, json])
            guard !words.isEmpty else { throw CommandUsageError(strings[.usageQuery]) }
            let perPage = try Self.number(arguments, perPageOption, strings) ?? defaultPerPage
            guard SearchPhotos.perPageRange.contains(perPage) else { throw CommandUsageError(strings[.usagePerPage]) }
            let page = try Self.number(arguments, page, strings) ?? 1
            let viewModel = try PhotoViewModel(resolver: context.resolver)
            let query = words.joined(separator: " ")
            let result = try viewModel.search(query, page: page, perPage: perPage)
            if arguments.has(json) {
                context.ui.print(JSONOutput.string(result))
            } else {
                context.ui.print(
                    context.strings.plural(
                        .resultsSummary, count: result.totalHits, "\(page)", "\(viewModel.pageCount)", "\(result.totalHits)"))
                for hit in result.hits { context.ui.print("  #\(hit.id)  \(hit.tags) — \(hit.user)") }
                if let attribution = result.attribution {
                    context.ui.print(context.strings.format(.attribution, attribution.name, attribution.link))
                }
            }
        }
    }

    private var show: ModuleCommand {
        let context = self.context
        let strings = context.strings
        return ModuleCommand(
            name: "show", summary: strings[.cmdShowSummary], arguments: "ID", options: [], example: "modhost photos show 101"
        ) {
            (invocation: CommandInvocation) throws in
            let id = try Self.id(invocation.arguments, strings)
            let viewModel = try PhotoViewModel(resolver: context.resolver)
            let hit = try viewModel.photo(id: id)
            for line in PhotoText.details(hit, context.strings) { context.ui.print(line) }
        }
    }

    private var download: ModuleCommand {
        let context = self.context
        let strings = context.strings
        let (to, parents, force) = (
            CommandOption("--to DIR", strings[.optTo]), CommandOption("--parents", strings[.optParents]),
            CommandOption("--force", strings[.optForce])
        )
        // Its usage is written out: `--parents` goes only with `--to`, which a list cannot show.
        return ModuleCommand(
            name: "download", summary: strings[.cmdDownloadSummary],
            usage: "download ID [\(to.usage) [\(parents.usage)]] [\(force.usage)]", options: [to, parents, force],
            example: "modhost photos download 101 --to ~/Pictures --parents"
        ) {
            (invocation: CommandInvocation) throws in
            let (words, rest) = Self.splitWords(invocation.arguments)
            let id = try Self.id(words, strings)
            let arguments = try CommandArguments(rest, options: [to, parents, force])
            let folder = arguments.value(to) ?? FileManager.default.currentDirectoryPath
            let viewModel = try PhotoViewModel(resolver: context.resolver)
            let hit = try viewModel.photo(id: id)
            let terminal = context.ui.terminal
            let bar = ProgressBar.reporter(on: terminal)
            let (replacing, creating) = (arguments.has(force), arguments.has(parents))
            let path = try viewModel.download(hit, to: folder, replacing: replacing, creatingFolder: creating, progress: bar)
            if bar != nil { terminal.write("\n") }
            context.ui.print(context.strings.format(.downloaded, path))
        }
    }

    static func number(_ arguments: CommandArguments, _ option: CommandOption, _ strings: ModuleStrings) throws -> Int? {
        guard let text = arguments.value(option) else { return nil }
        guard let value = Int(text), value > 0 else { throw CommandUsageError(strings.format(.usageNumber, option.name, text)) }
        return value
    }

    /// Leading words (the query or the id), then the options.
    static func splitWords(_ arguments: [String]) -> ([String], [String]) {
        let words = Array(arguments.prefix { !$0.hasPrefix("--") })
        return (words, Array(arguments.dropFirst(words.count)))
    }

    static func id(_ arguments: [String], _ strings: ModuleStrings) throws -> Int {
        guard arguments.count == 1, let id = Int(arguments[0]), id > 0 else {
            throw CommandUsageError(strings.format(.usageID, arguments.joined(separator: " ")))
        }
        return id
    }

}

/// `[##########          ]  52%` redrawn in place on a TTY.
enum ProgressBar {
    /// A progress callback drawing on `terminal`, or `nil` when it is not a TTY.
    static func reporter(on terminal: any Terminal) -> (@Sendable (Int64, Int64?) -> Void)? {
        guard terminal.isInteractive else { return nil }
        return { received, expected in draw(on: terminal, received, expected) }
    }

    static func draw(on terminal: any Terminal, _ received: Int64, _ expected: Int64?) {
        guard let expected, expected > 0 else {
            terminal.redrawLine("\(received / 1024) KB")
            return
        }
        let fraction = min(1, Double(received) / Double(expected))
        let filled = Int(fraction * 30)
        terminal.redrawLine(
            "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled) + "] \(Int(fraction * 100))%")
    }
}

/// Photos' refusals reach a person in their language through the host.
extension PhotoError: ModuleError {}
