import Foundation
@_spi(Host) import ModuleKit
import Testing

/// A configuration with every shape a module's `config` may take.
private final class RichModule: Module {
    struct Configuration: Decodable {
        struct Limits: Decodable {
            let count: UInt8
            let ratio: Double
            let scale: Float?
        }
        struct Mirror: Decodable {
            let url: URL
            let weight: Int
        }
        let name: String
        let enabled: Bool
        let limits: Limits
        let mirrors: [Mirror]
        let tags: [String]?
        let note: String?
        let blob: Data?
        let price: Decimal?
    }

    static let name = "Rich"
    static let version = "1.0.0"
    init() {}
    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {}
}

/// The kit decodes a module's `config` itself (no JSONDecoder at start): the same values as
/// JSONDecoder, and for a key that is missing, null, of the wrong type, out of range or not a
/// setting a message with the value found and what is expected, in an operator's words.
@Suite struct ConfigDecoderTests {
    static let valid = #"""
        {"name": "Lyon", "enabled": true, "limits": {"count": 200, "ratio": 0.5, "scale": 2},
         "mirrors": [{"url": "https://example.com/a?b=c", "weight": -3}], "tags": ["a", "b"], "note": null,
         "blob": "aGVsbG8=", "price": 2.5}
        """#

    func problem(_ json: String) -> String? {
        do {
            try ModuleInstance(RichModule()).validateConfiguration(Array(json.utf8))
            return nil
        } catch {
            return "\(error)"
        }
    }

    func replacing(_ old: String, with new: String) -> String { Self.valid.replacingOccurrences(of: old, with: new) }

    @Test func everyShapeDecodesLikeJSONDecoder() throws {
        #expect(problem(Self.valid) == nil)
        #expect(problem(replacing(#", "tags": ["a", "b"], "note": null"#, with: "")) == nil, "optional keys may be absent")
    }

    @Test(arguments: [
        (#""count": 200"#, #""count": 300"#, "config.limits.count is 300; expected a whole number from 0 to 255"),
        (#""count": 200"#, #""count": 2.5"#, "config.limits.count is 2.5; expected a whole number from 0 to 255"),
        (#""count": 200"#, #""count": "200""#, #"config.limits.count is "200"; expected a whole number from 0 to 255"#),
        (#""enabled": true"#, #""enabled": null"#, "config.enabled is null; expected true or false"),
        (#""enabled": true, "#, "", "config.enabled is missing"),
        (#""weight": -3"#, #""weight": -3, "wieght": 1"#, "config.mirrors.[0]: no error: keys inside arrays are not checked"),
        (#""ratio": 0.5"#, #""ratio": 0.5, "ratoi": 1"#, "config.limits.ratoi is not a setting; did you mean 'ratio'?"),
        (#""url": "https://example.com/a?b=c""#, #""url": 3"#, "config.mirrors.[0].url is 3; expected text (in quotes)"),
        (
            #""mirrors": [{"url": "https://example.com/a?b=c", "weight": -3}]"#, #""mirrors": {"url": "x"}"#,
            "config.mirrors is an object; expected a list ([…])"
        ),
        (#""blob": "aGVsbG8=""#, #""blob": "***""#, #"config.blob is "***"; expected Base64 text"#),
        (#""price": 2.5"#, #""price": "2.5""#, #"config.price is "2.5"; expected a number"#),
        (#""scale": 2"#, #""scale": 1e300"#, "config.limits.scale is 1e+300; expected a number of at most 3.4e38 in size"),
    ])
    func eachProblemIsNamedByItsKey(old: String, new: String, expected: String) {
        let message = problem(replacing(old, with: new))
        if expected.hasSuffix("keys inside arrays are not checked") {
            #expect(message == nil, "JSONDecoder's recording never looked inside arrays either")
        } else {
            #expect(message == expected)
        }
    }

    @Test func syntaxErrorsAndDuplicateKeysAreRefused() {
        #expect(problem(#"{"name": "Lyon""#)?.hasPrefix("config: The given data was not valid JSON: line 1, column 16") == true)
        #expect(problem(#"{"name": "Lyon", "name": "Paris"}"#)?.contains("duplicate key 'name'") == true)
        #expect(problem("[1, 2]") == "config is a list; expected an object ({…})")
    }
}

/// A configuration of optional keys only, validated after every key is read (as the guide
/// asks): every problem of one `config` is told at once.
private final class OptionalsModule: Module {
    struct Configuration: Decodable {
        var source: String?
        var apiKey: String?
        var perPage: Int?
        var ratio: Double?
        enum CodingKeys: String, CodingKey { case source, apiKey, perPage, ratio }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            source = try container.decodeIfPresent(String.self, forKey: .source)
            apiKey = try container.decodeIfPresent(String.self, forKey: .apiKey)
            perPage = try container.decodeIfPresent(Int.self, forKey: .perPage)
            ratio = try container.decodeIfPresent(Double.self, forKey: .ratio)
            var problems: [String] = []
            if let source, source != "catalog" { problems.append("config.source is \"\(source)\"; expected \"catalog\"") }
            if !problems.isEmpty { throw ConfigurationError(problems: problems) }
        }
    }

    static let name = "Optionals"
    static let version = "1.0.0"
    init() {}
    func register(_ registry: ModuleRegistry, configuration: Configuration) throws {}
}

@Suite struct EveryConfigurationProblemAtOnceTests {
    func problems(_ json: String) -> [String] {
        do {
            try ModuleInstance(OptionalsModule()).validateConfiguration(Array(json.utf8))
            return []
        } catch let error as ConfigurationError {
            return error.problems
        } catch {
            return ["\(error)"]
        }
    }

    @Test func everyProblemOfOneConfigIsToldWithTheValueFound() {
        #expect(
            problems(#"{"source": "web", "sorce": 1, "apiKey": 12345, "perPage": "20", "ratio": true}"#) == [
                "config.apiKey is set (its value is not shown); expected text (in quotes)",
                #"config.perPage is "20"; expected a whole number"#,
                "config.ratio is true; expected a number",
                "config.sorce is not a setting; did you mean 'source'?",
                #"config.source is "web"; expected "catalog""#,
            ])
        #expect(problems(#"{"perPage": 20, "ratio": 0.5}"#) == [], "what is right decodes")
    }

    /// A required key's problem ends the type's decoding: its keys after it were never read,
    /// so they are not called unknown.
    @Test func aRequiredKeysProblemStopsWithoutBlamingTheKeysNeverReached() {
        let error = #expect(throws: ConfigurationError.self) {
            try ModuleInstance(RichModule()).validateConfiguration(Array(#"{"name": 3, "enabled": true, "extra": 1}"#.utf8))
        }
        #expect(error?.problems == ["config.name is 3; expected text (in quotes)"])
    }

    @Test func aModuleThatTakesNoConfigurationNamesEveryKeyOnce() {
        let error = #expect(throws: ConfigurationError.self) {
            try ModuleInstance(NoneModule()).validateConfiguration(Array(#"{"b": 1, "a": 2}"#.utf8))
        }
        #expect(
            error?.problems == ["config.a is not a setting; this module takes none", "config.b is not a setting; this module takes none"])
        #expect(error?.message == "config.a is not a setting; this module takes none; config.b is not a setting; this module takes none")
    }
}

private final class NoneModule: Module {
    static let name = "None"
    static let version = "1.0.0"
    init() {}
    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}
}
