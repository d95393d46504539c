import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// Every `--json` output but Photos' (the API's own format, on purpose) has one layout: an
/// object, sorted keys, `schemaVersion`, the payload under a named key, every key present.
@Suite struct JSONLayoutTests {
    @Test func everyJSONOutputSharesOneLayout() throws {
        let host = try TestHost(entries: [("Auth", ""), ("Geo", ""), ("Settings", "")])
        func run(_ arguments: [String], input: String = "") throws -> String {
            let result = try host.run(arguments: arguments, input: input)
            #expect(result.succeeded, "\(result)")
            return result.stdout
        }
        _ = try run(
            ["auth", "register", "--email", "ann@example.com", "--name", "Ann", "--password-stdin"], input: "secret12!\nsecret12!\n")
        _ = try run(["geo", "add", "--country", "FR", "--city", "Lyon"])
        let outputs = [
            ("user", try run(["auth", "whoami", "--json"])), ("cities", try run(["geo", "list", "--json"])),
            ("settings", try run(["settings", "list", "--json"])), ("modules", try run(["modules", "--json"])),
        ]
        for (key, text) in outputs {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(key): \(text)")
            #expect(object["schemaVersion"] as? Int == 1, "\(key)")
            #expect(object[key] != nil, "\(key): the payload under its name")
            #expect(text.hasSuffix("}\n"))
        }
        #expect(
            try run(["geo", "list", "--json"]) == #"{"cities":[{"city":"Lyon","country":"FR","countryName":"France"}],"schemaVersion":1}"#
                + "\n")
        // An empty answer is a document too, with exit 1 and the reason on standard error.
        let nobody = try TestHost(entries: [("Auth", "")]).run("auth", "whoami", "--json")
        #expect(nobody.status == 1)
        #expect(nobody.stdout == #"{"schemaVersion":1,"user":null}"# + "\n")
        #expect(nobody.stderr == "modhost: error: auth whoami: Nobody is logged in.\n")
        let settings = try run(["settings", "list", "--json"])
        #expect(
            settings.hasPrefix(
                #"{"schemaVersion":1,"settings":[{"default":"en","key":"settings.language","title":"Language","value":"en"}"#))
    }
}
