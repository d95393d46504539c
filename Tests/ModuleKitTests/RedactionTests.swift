import ModuleKit
import Testing

/// The kit's one redaction path, rule by rule.
@Suite struct RedactionTests {
    @Test(arguments: [
        ("GET http://127.0.0.1:8085/api/?key=K3Y-123456&q=cats", "GET http://127.0.0.1:8085/api/?key=***&q=cats"),
        ("https://user:pass@example.com/api/", "https://***@example.com/api/"),
        ("cannot reach 'https://ann:s3cr3t@host:8443/x?q=1'", "cannot reach 'https://***@host:8443/x?q=1'"),
        ("Authorization: Bearer abc.def.ghi\nAccept: */*", "Authorization: ***\nAccept: */*"),
        ("token sent as bearer abcdef", "token sent as bearer ***"),
        ("AUTHORIZATION: Basic YWJj\nBEARER xyz and aUtHoRiZaTiOn:tok", "AUTHORIZATION: ***\nBEARER *** and aUtHoRiZaTiOn:***"),
        ("é → Bearer ünïcode-token done", "é → Bearer *** done"),
        ("authorizatio: no, bearer", "authorizatio: no, bearer"),
        (#"{"password": "hunter22", "user": "ann"}"#, #"{"password": "***", "user": "ann"}"#),
        ("api_key=abc&API_KEY=def;secret=x y", "api_key=***&API_KEY=***;secret=*** y"),
        ("module 'Geo': library '/x/libGeo.so' is fine", "module 'Geo': library '/x/libGeo.so' is fine"),
        ("Did you mean: Italy? keyboard=us", "Did you mean: Italy? keyboard=us"),
    ])
    func secretsAreRedacted(input: String, expected: String) {
        #expect(Redaction.redact(input) == expected)
    }

    @Test func aRegisteredSecretIsRedactedWhereverItAppears() {
        Redaction.register(secret: "K3Y-SUPERSECRET-REGISTERED")
        #expect(Redaction.redact("[ERROR 400] echo: K3Y-SUPERSECRET-REGISTERED!") == "[ERROR 400] echo: ***!")
        Redaction.register(secret: "abc")
        #expect(Redaction.redact("abc") == "abc", "too short to register: it would blank out words")
    }

    @Test func anExcerptIsOneShortRedactedLine() {
        let body = "line one\n\u{1B}[31mred\u{1B}[0m\tkey=SECRET-VALUE-9 " + String(repeating: "x", count: 500)
        let excerpt = Redaction.excerpt(body, limit: 60)
        #expect(!excerpt.contains("\n") && !excerpt.contains("\u{1B}") && !excerpt.contains("SECRET-VALUE-9"))
        #expect(excerpt.hasPrefix("line one [31mred [0m key=*** xxx"))
        #expect(excerpt.count == 61 && excerpt.hasSuffix("…"))
    }
}
