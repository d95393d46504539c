// The kit's route bridge generator, run by RouteBridgePlugin:
//
//   RouteBridgeTool OUTPUT --contracts NAME SOURCE... [--contracts NAME SOURCE...]...
//
// reads the route protocols of each contracts library's sources (with swift-syntax's parser,
// which the toolchain ships) and writes OUTPUT: a proxy and a dispatcher for each, so that a
// route crosses a process boundary with neither side's code changed. A member that cannot
// cross fails the build, naming it (see ContractsReader).
import Foundation

func generate(_ arguments: [String]) throws -> Int32 {
    guard arguments.count >= 3, arguments[1] == "--contracts" else {
        FileHandle.standardError.write(Data("usage: RouteBridgeTool OUTPUT --contracts NAME SOURCE... [--contracts NAME SOURCE...]\n".utf8))
        return 2
    }
    let groups = arguments.dropFirst().split(separator: "--contracts", omittingEmptySubsequences: true)
    var protocols: [BridgedProtocol] = []
    var problems: [CrossingProblem] = []
    var modules: [String] = []
    for group in groups {
        guard let name = group.first else { continue }
        modules.append(name)
        let sources = try group.dropFirst().sorted().map { path in (path: path, text: try String(contentsOfFile: path, encoding: .utf8)) }
        var reader = ContractsReader(module: name, sources: sources)
        protocols += reader.bridgedProtocols()
        problems += reader.problems
    }
    for problem in problems {
        FileHandle.standardError.write(Data("\(problem.location): error: \(problem.message)\n".utf8))
    }
    if !problems.isEmpty {
        FileHandle.standardError.write(
            Data(
                "RouteBridgeTool: \(problems.count) member(s) cannot cross a process boundary; mark one '// \(ContractsReader.inProcessMarker)' to keep it in its process\n"
                    .utf8))
        return 1
    }
    let source = BridgeSource.render(protocols, modules: modules)
    if (try? String(contentsOfFile: arguments[0], encoding: .utf8)) != source {
        try source.write(toFile: arguments[0], atomically: true, encoding: .utf8)
    }
    return 0
}

do {
    exit(try generate(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("RouteBridgeTool: error: \(error)\n".utf8))
    exit(1)
}
