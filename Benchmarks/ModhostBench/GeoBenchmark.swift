import Foundation
import GeoFeature
@_spi(Host) import ModuleKit

/// Geo with 1 000, 10 000 and 100 000 saved cities: `modhost geo list --json` (wall time and
/// peak memory of the process) and adding one city through the interactor (median).
struct GeoBenchmark {
    let rounds: Int
    static let countries = ["FR", "DE", "IT", "ES", "GR", "PT", "BE", "NL", "PL", "SE", "NO", "FI", "JP", "BR", "CA", "US"]

    func run(into report: BenchReport) {
        let config = writeConfig(["Geo"], name: "geo")
        for size in [1_000, 10_000, 100_000] {
            let data = NSTemporaryDirectory() + "modhost-bench-geo-\(size)-" + UUID().uuidString
            do {
                let storage = try SQLiteGeoStorage(storage: ModuleStorage(dataFolder: data, module: "Geo"))
                try fill(storage, count: size)
                setenv("MODHOST_DATA_DIR", data, 1)
                var times: [Double] = []
                var memory: [Double] = []
                for _ in 0..<max(3, rounds / 4) {
                    let arguments = ["--config", config, "geo", "list", "--json"]
                    times.append(timeProcess(buildFolder + "/modhost", arguments))
                    memory.append(peakMemory(buildFolder + "/modhost", arguments))
                }
                report.add(
                    "geo: list --json, \(size) cities",
                    format(milliseconds: median(times)) + String(format: ", peak %.1f MB", median(memory) / 1_048_576))
                report.add("geo: add one city, \(size) saved", format(milliseconds: try addMedian(storage: storage)))
            } catch {
                report.add("geo \(size)", "FAILED: \(error)")
            }
        }
        unsetenv("MODHOST_DATA_DIR")
    }

    /// Inserts `count` cities in one transaction (the setup, not what is measured).
    private func fill(_ storage: SQLiteGeoStorage, count: Int) throws {
        try storage.database.transaction { transaction in
            for index in 0..<count {
                let name = "City \(index)"
                try transaction.execute(
                    "INSERT INTO city (country, name, match_key, sort_key) VALUES (?, ?, ?, ?)",
                    [.text(Self.countries[index % Self.countries.count]), .text(name), .text(name.lowercased()), .text(name.lowercased())])
            }
        }
    }

    /// Median of adding new cities one by one through the interactor (validation, country
    /// lookup, one durable transaction each).
    private func addMedian(storage: SQLiteGeoStorage) throws -> Double {
        let (locator, access) = ServiceLocator.withHostAccess()
        let resolver = locator.resolver(for: GeoModule.manifest, access: access)
        let registry = ModuleRegistry(
            context: ModuleContext(
                moduleName: "Geo", environment: .test, logger: Logger(label: "Geo", minimumLevel: .critical), resolver: resolver,
                storage: ModuleStorage(dataFolder: NSTemporaryDirectory() + "modhost-bench-unused", module: "unused"),
                strings: .none(locale: LocaleSetting(environment: [:])), locale: LocaleSetting(environment: [:]),
                navigator: Navigator(ui: TerminalUI(terminal: ScriptedTerminal(lines: []), labels: { $0.rawValue }))),
            locator: locator)
        try registry.service((any GeoStorageService).self, .singleton(storage))
        try registry.service(RegionCatalog.self, .singleton(RegionCatalog()))
        locator.seal()
        let interactor = try PlacesInteractor(resolver: resolver, locale: LocaleSetting(environment: [:]))
        var samples: [Double] = []
        for index in 0..<(rounds * 5) {
            let start = now()
            _ = try interactor.add(country: "France", city: "Added \(index) \(UUID().uuidString.prefix(6))")
            samples.append(Double(now() - start))
        }
        return median(samples)
    }
}
