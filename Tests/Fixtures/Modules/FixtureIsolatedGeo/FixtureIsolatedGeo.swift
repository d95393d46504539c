import Contracts
import Foundation
import ModuleKit

/// Test module: provides GeoRoute with one city, and misbehaves where its `config` says,
/// `{"in": "start" | "call" | "command" | "stop", "how": …, "announce": PATH}` ("command": its `cities`
/// command), for the tests of a module in a
/// process of its own. How:
/// - "exit": `exit(3)`; "raise": `raise(SIGSEGV)`; "killself": `kill(getpid(), SIGKILL)`;
///   "block": waits for ever;
/// - "flood": writes 1 MiB of frames nobody asked for to descriptor 3 (the host's link, which
///   module code can reach in its process), then answers;
/// - "pings": writes 10 000 pings (asking the host whether it is alive) to descriptor 3;
/// - "trickle": announces a frame on descriptor 3, then writes one byte of it every 300 ms, for
///   10 s, then answers;
/// - "fail": throws an error with a message;
/// - "escapes": prints a line in bold (standard output, buffered), writes what a terminal would
///   obey (a window title, a cleared screen, red) on descriptors 1 and 2 itself, past the kit,
///   and a last line without its end;
/// - "later": on a thread of its own, once a file `go` is in its data folder, writes a line the
///   terminal would obey (a window title) on descriptor 2, then leaves a file `written`.
/// `announce`, a file name in its data folder (where a module in a sandbox may write), is
/// written with the process id just before it misbehaves; with `once`, another, it misbehaves
/// only while no such file is there, and leaves one as it does (a process started again then
/// behaves). With `registerAs`, a module's name, its start registers a setting
/// `sneaky` under that name, when Settings runs.
final class FixtureIsolatedGeo: Module {
    struct Configuration: Decodable {
        var `in`: String?
        var how: String?
        var announce: String?
        var once: String?
        var registerAs: String?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The configuration, kept for the route (set once, in register).
    nonisolated(unsafe) static var plan = Configuration()
    /// Its data folder (set once, in start).
    nonisolated(unsafe) static var folder = ""

    init() {}

    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {
        Self.plan = configuration
        try registry.route((any GeoRoute).self, .singleton(Cities()))
    }

    func start(_ context: ModuleContext) throws {
        Self.folder = context.storage.folder
        if let other = Self.plan.registerAs, let settings = try context.resolver.optional((any SettingsRoute).self) {
            settings.register(
                [SettingDefinition(key: "sneaky", title: { "Sneaky" }, kind: .toggle, defaultValue: .bool(true))], module: other)
        }
        try Self.misbehave(in: "start")
    }

    func stop() { try? Self.misbehave(in: "stop") }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "cities", summary: "Print its cities, in its process", usage: "cities") { _ in
                try Self.misbehave(in: "command")
                context.ui.print("Porto (PT), from process \(getpid())")
            }
        ]
    }

    static func misbehave(in place: String) throws {
        guard plan.in == place, let how = plan.how else { return }
        if let once = plan.once.map({ folder + "/" + $0 }) {
            guard !FileManager.default.fileExists(atPath: once) else { return }
            _ = FileManager.default.createFile(atPath: once, contents: Data())
        }
        if let announce = plan.announce.map({ folder + "/" + $0 }) {
            _ = FileManager.default.createFile(atPath: announce, contents: Data("\(getpid())".utf8))
        }
        switch how {
        case "exit": exit(3)
        case "raise": raise(SIGSEGV)
        case "killself": kill(getpid(), SIGKILL)
        case "block": while true { sleep(60) }
        case "flood":
            // A frame header announcing kind 6 (an answer) for a call never made, over and over.
            var junk: [UInt8] = []
            for _ in 0..<(1 << 20) / 19 { junk += [11, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0xEE, 0, 0, 0, 0, 0, 0, 0, 0] }
            _ = junk.withUnsafeBytes { write(3, $0.baseAddress, $0.count) }
        case "pings":
            var pings: [UInt8] = []
            for _ in 0..<10_000 { pings += [3, 0, 0, 0, 0, 0, 0, 0, 2, 0, UInt8(ascii: "x")] }
            _ = pings.withUnsafeBytes { write(3, $0.baseAddress, $0.count) }
        case "trickle":
            // A frame of 1 000 bytes announced, then its bytes one at a time.
            let header: [UInt8] = [0xE8, 0x03, 0, 0, 0, 0, 0, 0]
            _ = header.withUnsafeBytes { write(3, $0.baseAddress, $0.count) }
            for _ in 0..<33 {
                var byte: UInt8 = 6
                _ = write(3, &byte, 1)
                usleep(300_000)
            }
        case "fail": throw Failure(description: "FixtureIsolatedGeo failed in \(place) as told")
        case "later":
            let folder = Self.folder
            Thread.detachNewThread {
                while !FileManager.default.fileExists(atPath: folder + "/go") { usleep(20_000) }
                _ = Array("late:\u{1B}]0;taken\u{07}\n".utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                _ = FileManager.default.createFile(atPath: folder + "/written", contents: Data())
            }
        case "escapes":
            print("printed:\u{1B}[1mbold")
            let writes: [(Int32, String)] = [(1, "out:\u{1B}]0;taken\u{07}\u{1B}[2J\n"), (2, "err:\u{1B}[31mred\n"), (2, "last words")]
            for (descriptor, text) in writes { _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
        default: return
        }
    }

    struct Cities: GeoRoute {
        func savedCities() throws -> [SavedCity] {
            try FixtureIsolatedGeo.misbehave(in: "call")
            return [SavedCity(country: "PT", countryName: "Portugal", city: "Porto")]
        }

        @MainActor func presentCityPicker(completion: @escaping @MainActor (SavedCity?) -> Void) { completion(nil) }
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(FixtureIsolatedGeo.self, request) }
