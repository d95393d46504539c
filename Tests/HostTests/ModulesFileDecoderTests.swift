import Foundation
@_spi(Host) import ModuleKit
import Testing

@testable import HostModel

@Suite struct ModulesFileDecoderTests {
    let decoder = ModulesFileDecoder(defaultSearchPath: "/opt/modhost/bin")

    func problems(_ json: String) -> [String] {
        do {
            _ = try decoder.decode(Data(json.utf8), path: "/etc/modhost/modules.json")
            return []
        } catch {
            return error.problems
        }
    }

    @Test func decodesAFullFile() throws {
        let configuration = try decoder.decode(
            Data(
                #"""
                {"environment": "stage", "searchPaths": ["lib", "/usr/lib/modhost"],
                 "modules": [{"name": "Geo", "enabled": true, "library": "plugins/libGeo.so", "config": {"defaultCountry": "FR", "n": 3}},
                             {"name": "Auth", "enabled": false}]}
                """#.utf8), path: "/etc/modhost/modules.json")
        #expect(configuration.environment == .stage)
        #expect(configuration.searchPaths == ["/etc/modhost/lib", "/usr/lib/modhost"])
        #expect(configuration.modules.map(\.name) == ["Geo", "Auth"])
        #expect(configuration.modules.map(\.enabled) == [true, false])
        #expect(configuration.modules[0].library == "plugins/libGeo.so")
        let config = try JSONSerialization.jsonObject(with: Data(configuration.modules[0].config ?? [])) as? [String: Any]
        #expect(config?["defaultCountry"] as? String == "FR")
        #expect(config?["n"] as? Int == 3)
        #expect(configuration.entry(named: "geo")?.name == "Geo")
    }

    /// A module's `config` reaches it as JSON text the host writes itself: whatever the file
    /// held reads back the same, escapes, non-ASCII text and every kind of number included.
    @Test func aModulesConfigIsHandedOnAsTheSameJSON() throws {
        let config = #"""
            {"text": "quote \" slash \\ tab \t nul \u0000 bell \u0007 é 東京 🌍", "n": 3, "big": 9007199254740993,
             "small": 1e-5, "negative": -2.5, "huge": 1.5e300, "zero": -0, "yes": true, "no": false, "none": null,
             "list": [1, [2, {}], [], "x"], "nested": {"b": {"c": [null]}, "a": ""}}
            """#
        let configuration = try decoder.decode(
            Data(#"{"modules": [{"name": "Geo", "enabled": true, "config": \#(config)}]}"#.utf8), path: "/etc/modhost/modules.json")
        let handed = try #require(configuration.modules.first?.config)
        #expect(try JSONParser.parse(Array(handed)) == JSONParser.parse(Array(config.utf8)))
        // Foundation reads it as well as the host's parser does.
        let foundation = try JSONSerialization.jsonObject(with: Data(handed)) as? [String: Any]
        #expect(foundation?["text"] as? String == "quote \" slash \\ tab \t nul \u{0} bell \u{7} é 東京 🌍")
        #expect(foundation?["small"] as? Double == 1e-5)
        #expect(String(decoding: handed, as: UTF8.self).hasPrefix(#"{"big":9007199254740992,"huge":1.5e+300,"#))
    }

    @Test func defaultsToDevelopmentAndTheExecutableFolder() throws {
        let configuration = try decoder.decode(Data(#"{"modules": []}"#.utf8), path: "/etc/modhost/modules.json")
        #expect(configuration.environment == .development)
        #expect(configuration.searchPaths == ["/opt/modhost/bin"])
    }

    @Test(arguments: [
        ("", "is not valid JSON: line 1, column 1: unexpected end of file; expected a value"),
        ("{\n  \"modules\": [,]\n}", "is not valid JSON: line 2, column 15: unexpected character ','; expected a value"),
        (#"{"modules": [], "modules": []}"#, "is not valid JSON: line 1, column 17: duplicate key 'modules'"),
        (
            #"{"modules": [] "environment": "test"}"#,
            "is not valid JSON: line 1, column 16: expected ',' or '}' after the value of 'modules'"
        ),
        (#"{"modules": [{"name": "G\xo", "enabled": true}]}"#, "is not valid JSON: line 1, column 26: invalid escape '\\x' in a string"),
        (#"{"modules": [tru]}"#, "is not valid JSON: line 1, column 14: unexpected text; expected 'true'"),
        ("[]", "must be a JSON object with 'modules', found an array"),
        ("{}", "'modules' is missing: add \"modules\": [] with one object per module"),
        (#"{"modules": {}}"#, "'modules' must be an array, found an object"),
        (#"{"modules": [], "enviroment": "test"}"#, "unknown top-level key 'enviroment'; did you mean 'environment'?"),
        (
            #"{"modules": [], "environment": "prod"}"#,
            "unknown environment 'prod'; use one of development, test, stage, production; did you mean 'production'?"
        ),
        (#"{"modules": [], "environment": 3}"#, "'environment' must be a string, found 3"),
        (#"{"modules": [], "searchPaths": "/lib"}"#, #"'searchPaths' must be an array of strings, found "/lib""#),
        (#"{"modules": [], "searchPaths": [""]}"#, "searchPaths[0] is empty; remove it or name a folder"),
        (#"{"modules": [], "searchPaths": [1]}"#, "searchPaths[0] must be a string, found 1"),
        (#"{"modules": [3]}"#, "modules[0] must be an object, found 3"),
        (#"{"modules": [{"enabled": true}]}"#, "modules[0]: 'name' is missing"),
        (#"{"modules": [{"name": "Geo"}]}"#, "modules[0] ('Geo'): 'enabled' is missing: add \"enabled\": true or false"),
        (#"{"modules": [{"name": "Geo", "enabled": "yes"}]}"#, #"modules[0] ('Geo'): 'enabled' must be true or false, found "yes""#),
        (#"{"modules": [{"name": "Geo", "enabled": 1}]}"#, "modules[0] ('Geo'): 'enabled' must be true or false, found 1"),
        (
            #"{"modules": [{"name": "Geo", "enabeld": true, "enabled": true}]}"#,
            "modules[0] ('Geo'): unknown key 'enabeld'; did you mean 'enabled'?"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true, "libary": "x.so"}]}"#,
            "modules[0] ('Geo'): unknown key 'libary'; did you mean 'library'?"
        ),
        (#"{"modules": [{"name": 7, "enabled": true}]}"#, "modules[0]: 'name' must be a string, found 7"),
        (
            #"{"modules": [{"name": "my geo", "enabled": true}]}"#,
            "modules[0] ('my geo'): name 'my geo' must start with a letter and hold only letters, digits and '_' (it names lib<name>.so)"
        ),
        (
            #"{"modules": [{"name": "\#(String(repeating: "A", count: 129))", "enabled": true}]}"#,
            "modules[0] ('\(String(repeating: "A", count: 120))… (129 characters)'): name '\(String(repeating: "A", count: 120))… (129 characters)' is 129 characters long; a module's name has at most 128"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true, "startTimeout": 0}]}"#,
            "modules[0] ('Geo'): 'startTimeout' must be a number of seconds above 0 and at most 3600, found 0"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true, "library": ""}]}"#,
            "modules[0] ('Geo'): 'library' is empty; remove it or give the library's path"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true, "library": false}]}"#,
            "modules[0] ('Geo'): 'library' must be a string (a path), found false"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true, "config": [1]}]}"#,
            "modules[0] ('Geo'): 'config' must be an object, found an array"
        ),
        (
            #"{"modules": [{"name": "Geo", "enabled": true}, {"name": "geo", "enabled": false}]}"#,
            "modules[1] ('geo'): duplicate name: modules[0] is already named 'Geo'"
        ),
    ])
    func rejectsWithAMessageNamingTheEntry(json: String, expected: String) {
        #expect(problems(json) == [expected])
    }

    @Test func reportsEveryProblemAtOnce() {
        let found = problems(
            #"{"environment": "qa", "modules": [{"name": "Geo", "enabled": "no"}, {"name": "Auth", "enabled": true, "confg": {}}]}"#)
        #expect(
            found == [
                "unknown environment 'qa'; use one of development, test, stage, production",
                #"modules[0] ('Geo'): 'enabled' must be true or false, found "no""#,
                "modules[1] ('Auth'): unknown key 'confg'; did you mean 'config'?",
            ])
    }

    /// What `check` goes on with: every entry with a sound name, flawed or not, and which of
    /// them must not be loaded (a wrong library or pin); nothing when the file is unusable.
    @Test func aFlawedFileStillGivesWhatCanBeChecked() throws {
        let json = #"""
            {"modules": [
              {"name": "Geo", "enabled": true, "startTimeout": "5"},
              {"name": "Photos", "enabled": true, "sha256": "abc"},
              {"name": "bad name", "enabled": true},
              {"name": "Auth"},
              {"name": "geo", "enabled": true}
            ]}
            """#
        let reading = ModulesFileDecoder(defaultSearchPath: "/opt").read(bytes: Array(json.utf8), path: "m.json")
        let checkable = try #require(reading.checkable)
        #expect(checkable.modules.map(\.name) == ["Geo", "Photos", "Auth"])
        #expect(checkable.modules.map(\.index) == [0, 1, 3])
        #expect(checkable.modules.map(\.enabled) == [true, true, true], "an entry without 'enabled' is checked as enabled")
        #expect(checkable.modules[0].startTimeout == nil && checkable.modules[1].sha256 == nil, "flawed fields are left out")
        #expect(reading.unloadable == ["Photos"])
        #expect(reading.problems.map(\.entry) == [0, 1, 2, 3, 4])
        #expect(throws: ModulesFileError.self) { try reading.configuration() }
        let unusable = ModulesFileDecoder(defaultSearchPath: "/opt").read(bytes: Array(#"{"modules": 3}"#.utf8), path: "m.json")
        #expect(unusable.checkable == nil && unusable.problems.count == 1)
    }

    @Test func garbageBytesAreASyntaxErrorNotACrash() {
        #expect(problems("\u{FF}\u{FE}") == ["is not valid JSON: line 1, column 1: unexpected character byte 0xC3; expected a value"])
        let invalidUTF8 = Data([0x7B, 0x22, 0x61, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
        #expect(throws: ModulesFileError.self) { try decoder.decode(invalidUTF8, path: "x.json") }
        let deep = String(repeating: "[", count: 10_000)
        #expect(problems(deep) == ["is not valid JSON: line 1, column 257: nested deeper than 256 levels"])
    }

    @Test func aMissingFileSaysHowToPointElsewhere() {
        #expect(
            throws: ModulesFileError(
                path: "/nonexistent/modules.json",
                problems: [
                    "does not exist; pass another file with --config PATH or MODHOST_CONFIG"
                ])
        ) {
            try decoder.decode(contentsOf: "/nonexistent/modules.json")
        }
    }
}
