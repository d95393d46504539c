import Foundation
import TestSupport
import Testing

/// The kit's route bridge generator, run as the build runs it: a member that cannot cross a
/// process boundary fails the build with its file, line, protocol and member named, unless it
/// is marked in-process only; one that can is written as a proxy and a dispatcher.
@Suite struct RouteBridgeToolTests {
    static var tool: String { TestEnvironment.buildFolder + "/RouteBridgeTool-tool" }

    func generate(_ source: String) throws -> (result: ProcessResult, output: String) {
        let folder = try TestEnvironment.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try source.write(toFile: folder + "/Shop.swift", atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(Self.tool, [folder + "/out.swift", "--contracts", "ShopContracts", folder + "/Shop.swift"])
        return (result, (try? String(contentsOfFile: folder + "/out.swift", encoding: .utf8)) ?? "")
    }

    @Test func aMemberThatCannotCrossFailsTheBuildNamingIt() throws {
        let (result, output) = try generate(
            """
            public struct Basket: Sendable { public let items: [String] }
            public struct Item: Sendable, Codable { public let name: String }
            public protocol ShopRoute: Sendable {
                func items() throws -> [Item]
                func basket() throws -> Basket
                func price(of item: Item) -> Int
                func watch(_ handler: @escaping (Item) -> Int)
            }
            """)
        #expect(result.status == 1)
        #expect(output.isEmpty)
        #expect(result.stderr.contains("Shop.swift:5 ShopRoute.basket(): error: its result of type 'Basket' cannot cross"))
        // A non-throwing Int has an empty answer (0): no error names it.
        #expect(!result.stderr.contains("price(of:)"), "\(result.stderr)")
        #expect(result.stderr.contains("ShopRoute.watch(_:): error: its argument 'handler' is a closure returning 'Int'"))
        #expect(result.stderr.contains("2 member(s) cannot cross"))
        #expect(!result.stderr.contains("items()"))
    }

    @Test func aMemberWithoutAnAnswerForAGoneProcessIsRefused() throws {
        let (result, _) = try generate(
            """
            public struct Item: Sendable, Codable { public let name: String }
            public protocol ShopRoute: Sendable {
                func cheapest() -> Item
            }
            """)
        #expect(result.status == 1)
        #expect(result.stderr.contains("ShopRoute.cheapest(): error: it does not throw and its result 'Item' has no empty value"))
    }

    @Test func aMarkedMemberStaysInItsProcessAndTheRestIsGenerated() throws {
        let (result, output) = try generate(
            """
            public struct Basket: Sendable { public let items: [String] }
            public struct Item: Sendable, Codable { public let name: String }
            public protocol ShopRoute: Sendable {
                func items() throws -> [Item]
                // modhost: in-process only
                func basket() throws -> Basket
                @MainActor func pick(completion: @escaping @MainActor (Item?) -> Void)
            }
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(output.contains("package final class ShopRouteProxy: ShopRoute"))
        #expect(output.contains("package struct ShopRouteDispatcher: RouteDispatching"))
        #expect(output.contains("throw remote.notCarried(\"basket()\")"))
        #expect(output.contains("case \"items()\":"))
        #expect(!output.contains("case \"basket()\":"))
        #expect(output.contains("@MainActor package func pick(completion: @escaping @MainActor (Item?) -> Void)"))
        #expect(output.contains("name: \"ShopRoute\", contracts: \"ShopContracts\""))
    }

    /// A type marked carried crosses through the runtime's own conformance, alone or in an
    /// array; without the mark it fails the build as any type that is not Codable.
    @Test func aMarkedTypeIsCarriedByTheHost() throws {
        let source = """
            // modhost: carried by the host
            public struct Rule: Sendable { public let check: @Sendable (String) -> Bool }
            public protocol ShopRoute: Sendable {
                func add(_ rules: [Rule], to shop: String)
                func use(_ rule: Rule)
            }
            """
        let (result, output) = try generate(source)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(output.contains("rules.carry(into: &arguments)"), "\(output)")
        #expect(output.contains("let p0 = try ([Rule]).carried(0, from: call)"), "\(output)")
        #expect(output.contains("let p0 = try (Rule).carried(0, from: call)"), "\(output)")
        #expect(output.contains("target.add(p0, to: p1)"), "\(output)")
        let unmarked = try generate(source.replacingOccurrences(of: "// modhost: carried by the host\n", with: ""))
        #expect(unmarked.result.status != 0)
        #expect(unmarked.result.stderr.contains("ShopRoute.add"), "\(unmarked.result.stderr)")
    }
}
