import Contracts
import HostLifecycle
import HostModel
import ModuleKit

/// What `check` found, in the order an operator fixes it: the file's own problems, then each
/// module's (its configuration, its register, its resources), then the host's strings. Each
/// names the file and the entry (`'modules.json': modules[1] ('Photos'): …`).
struct CheckReport {
    /// One problem, located.
    struct Problem {
        /// The file it is in; `nil` for the host's own strings.
        var file: String?
        /// The entry's position in `modules`; `nil` for the file's own problem or a module
        /// added with `--module`.
        var entry: Int?
        var module: String?
        /// The module's state for `check`; `nil` for a problem of the file.
        var state: String?
        var reason: HostText
    }

    private(set) var problems: [Problem] = []

    var isEmpty: Bool { problems.isEmpty }

    /// - Parameters:
    ///   - moduleProblems: each problem the probe found, by module (a module may have several);
    ///     a failed or skipped module without any is told by its report's reason.
    init(
        path: String, fileProblems: [FileProblem], modules: [ModuleReport], entries: HostConfiguration,
        moduleProblems: [String: [HostText]], hostProblem: String?
    ) {
        problems = fileProblems.map { Problem(file: path, entry: $0.entry, module: $0.module, state: nil, reason: $0.text) }
        for report in modules where report.state == .failed || report.state == .skipped {
            let reasons = moduleProblems[report.name] ?? [report.reasonText ?? .plain("")]
            // A module added with --module is not an entry of the file.
            let entry = entries.entry(named: report.name)?.index
            for reason in reasons {
                problems.append(
                    Problem(
                        file: entry == nil ? nil : path, entry: entry, module: report.name, state: report.state.rawValue, reason: reason))
            }
        }
        if let hostProblem { problems.append(Problem(file: nil, entry: nil, module: nil, state: nil, reason: .plain(hostProblem))) }
    }

    /// One line each: `'modules.json': modules[1] ('Photos'): config.perPage is 500; …`.
    func lines(_ strings: ModuleStrings?) -> [String] {
        problems.map { problem in
            let text: HostText
            switch (problem.file, problem.entry, problem.module) {
            case (let file?, let entry, let module):
                text = Self.inFile(file, FileProblem(problem.reason, entry: entry, module: module).labeled)
            case (nil, _, let module?):
                text = HostText("problem.module", "module '%@': %@", [.plain(module), .text(problem.reason)])
            case (nil, _, nil):
                text = problem.reason
            }
            return text.render(strings)
        }
    }

    /// `'modules.json': …`: a problem of that file.
    static func inFile(_ path: String, _ problem: HostText) -> HostText {
        HostText("config.in.file", "'%@': %@", [.plain(path), .text(problem)])
    }

    /// The same list in the one JSON layout, every key present in each problem.
    func json(_ strings: ModuleStrings?) -> String {
        JSONOutput.document(
            "problems",
            problems.map {
                CheckProblem(
                    file: $0.file, entry: $0.entry, module: $0.module, state: $0.state, reason: $0.reason.render(strings))
            }) + "\n"
    }

    /// The file's problems alone, when it cannot be used at all (`check --json` says so in
    /// its layout too).
    static func json(fileProblems reading: ModulesFileReading, strings: ModuleStrings?) -> String {
        CheckReport(
            path: reading.path, fileProblems: reading.problems, modules: [],
            entries: HostConfiguration(path: reading.path, environment: .development, searchPaths: [], modules: []),
            moduleProblems: [:], hostProblem: nil
        ).json(strings)
    }
}

/// One problem `check --json` lists.
struct CheckProblem: Encodable {
    let file: String?
    /// The entry's position in the file's `modules`.
    let entry: Int?
    let module: String?
    let state: String?
    let reason: String

    enum CodingKeys: String, CodingKey { case file, entry, module, state, reason }

    /// Every key always present, as in every `--json`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(entry, forKey: .entry)
        try container.encode(module, forKey: .module)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
    }
}
