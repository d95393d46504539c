import ModuleKit
import Testing

@testable import AuthFeature

@Suite struct PasswordHasherTests {
    let hasher = PasswordHasher(cost: 1)

    @Test func hashesWithYescryptAndAFreshSalt() throws {
        let first = try #require(hasher.hash("secret12!"))
        let second = try #require(hasher.hash("secret12!"))
        #expect(first.hasPrefix("$y$"))
        #expect(first != second, "each hash has its own salt")
        #expect(!first.contains("secret12!"))
        #expect(hasher.verify("secret12!", against: first))
        #expect(hasher.verify("secret12!", against: second))
        #expect(!hasher.verify("secret12?", against: first))
        #expect(!hasher.verify("", against: first))
    }

    @Test func aDamagedHashNeverMatches() {
        #expect(!hasher.verify("secret12!", against: "not a hash"))
        #expect(!hasher.verify("secret12!", against: ""))
    }

    @Test func comparesInConstantTimeByValue() {
        #expect(PasswordHasher.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!PasswordHasher.constantTimeEqual(Array("abc".utf8), Array("abd".utf8)))
        #expect(!PasswordHasher.constantTimeEqual(Array("abc".utf8), Array("abcd".utf8)))
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func sha256MatchesTheStandardVectors(input: String, digest: String) throws {
        #expect(try SHA256.hex(of: Array(input.utf8)) == digest)
    }

    @Test func sha256OfAMillionAs() throws {
        #expect(
            try SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
