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
/// JSONDecoder, the same messages for a key that is missing, null, of the wrong type or not a
/// setting, and JSONDecoder's wording for a number that does not fit.
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
        (#""count": 200"#, #""count": 300"#, "config.limits.count: Parsed JSON number <300> does not fit in UInt8."),
        (#""count": 200"#, #""count": 2.5"#, "config.limits.count: Parsed JSON number <2.5> does not fit in UInt8."),
        (#""count": 200"#, #""count": "200""#, "config.limits.count has the wrong type: expected a whole number from 0 to 255"),
        (#""enabled": true"#, #""enabled": null"#, "config.enabled is null: expected true or false"),
        (#""enabled": true, "#, "", "config.enabled is missing"),
        (#""weight": -3"#, #""weight": -3, "wieght": 1"#, "config.mirrors.[0]: no error: keys inside arrays are not checked"),
        (#""ratio": 0.5"#, #""ratio": 0.5, "ratoi": 1"#, "config.limits.ratoi is not a setting; did you mean 'ratio'?"),
        (#""url": "https://example.com/a?b=c""#, #""url": 3"#, "config.mirrors.[0].url has the wrong type: expected text (in quotes)"),
        (
            #""mirrors": [{"url": "https://example.com/a?b=c", "weight": -3}]"#, #""mirrors": {"url": "x"}"#,
            "config.mirrors has the wrong type: expected a list ([…])"
        ),
        (#""blob": "aGVsbG8=""#, #""blob": "***""#, "config.blob: Encountered Data is not valid Base64."),
        (#""price": 2.5"#, #""price": "2.5""#, "config.price has the wrong type: expected a number"),
        (#""scale": 2"#, #""scale": 1e300"#, "config.limits.scale: Parsed JSON number <1e+300> does not fit in Float."),
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
        #expect(problem("[1, 2]") == "config has the wrong type: expected an object ({…})")
    }
}
