// Every `import` of a module this repository builds is a dependency its target declares
// directly — not one it reaches through another target or product. SwiftPM's own check
// (`--explicit-target-dependency-import-check`, which .ci/run also turns on) accepts an import
// reached through a dependency's dependencies; this one does not. Run by .ci/run:
//
//   swift Scripts/check-imports.swift [PACKAGE_FOLDER]   (default: the repository)
//
// Exit status 0 when every import is declared, 1 listing each that is not, 2 when a package
// cannot be described.
import Foundation

struct Target {
    let package: String
    let name: String
    let folder: String
    let sources: [String]
    let isSwift: Bool
    let declared: Set<String>
}

/// `swift package describe --type json` of the package at `folder`, read as JSON.
func describe(_ folder: String) -> [String: Any]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "--package-path", folder, "describe", "--type", "json"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

let root = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
var pending = [URL(fileURLWithPath: root).standardizedFileURL.path]
var described: Set<String> = []
var targets: [Target] = []
var modules: Set<String> = []
while let folder = pending.popLast() {
    guard described.insert(folder).inserted else { continue }
    guard let package = describe(folder) else {
        FileHandle.standardError.write(Data("check-imports: cannot describe the package at '\(folder)'\n".utf8))
        exit(2)
    }
    for dependency in package["dependencies"] as? [[String: Any]] ?? [] {
        if let path = dependency["path"] as? String { pending.append(path) }
    }
    let name = package["name"] as? String ?? folder
    for target in package["targets"] as? [[String: Any]] ?? [] {
        guard let targetName = target["c99name"] as? String, let path = target["path"] as? String else { continue }
        modules.insert(targetName)
        let declared = Set((target["target_dependencies"] as? [String] ?? []) + (target["product_dependencies"] as? [String] ?? []))
        targets.append(
            Target(
                package: name, name: targetName, folder: folder + "/" + path, sources: target["sources"] as? [String] ?? [],
                isSwift: (target["module_type"] as? String) == "SwiftTarget", declared: declared))
    }
}

/// The module an `import` line names: `import X`, `@testable import X`, `@_spi(Host) import X`,
/// `public import X`, `import struct X.Y`.
func importedModule(_ line: Substring) -> String? {
    var words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
    if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) { words.removeFirst() }
    guard words.first == "import", words.count >= 2 else { return nil }
    let kinds: Set<Substring> = ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"]
    let named = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
    return named.split(separator: ".").first.map(String.init)
}

var problems: [String] = []
for target in targets where target.isSwift {
    for source in target.sources where source.hasSuffix(".swift") {
        let path = target.folder + "/" + source
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
        // Lines inside a multi-line string literal (code a test or the scaffold writes) are text.
        var inLiteral = false
        for line in text.split(separator: "\n") {
            let quotes = line.components(separatedBy: "\"\"\"").count - 1
            defer { if quotes % 2 == 1 { inLiteral.toggle() } }
            let trimmed = line.drop { $0 == " " }
            guard !inLiteral, trimmed.contains("import "), let module = importedModule(trimmed), module != target.name else { continue }
            if modules.contains(module) && !target.declared.contains(module) {
                problems.append("\(path): target '\(target.name)' (package '\(target.package)') imports '\(module)', which it does not declare")
            }
        }
    }
}
if problems.isEmpty {
    print("check-imports: every import of \(targets.filter(\.isSwift).count) Swift targets in \(described.count) packages is declared")
    exit(0)
}
for problem in problems.sorted() { FileHandle.standardError.write(Data("check-imports: \(problem)\n".utf8)) }
exit(1)
