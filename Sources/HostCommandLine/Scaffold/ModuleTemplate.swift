import FoundationEssentials
import Glibc
import HostModel

/// The files of a new module package, as `modhost new` writes them: a package that builds
/// `lib<Name>.so` against the kit sources this `modhost` was built from, with a command, a
/// Home entry, strings in six locales, a unit test on the harness, an integration test in the
/// real host (ModuleHostTesting), a README and `.gitignore`.
struct ModuleTemplate {
    /// The module's name: a Swift identifier starting with an upper-case letter.
    let name: String
    /// The kit package's folder (absolute).
    let kitFolder: String
    /// The SDK version of that kit.
    let sdkVersion: String
    /// Whether the module provides a new route, declared in a contracts package of its own.
    var withRoute = false
    /// The `modhost` that writes the package: what its integration test runs by default.
    var hostExecutable = ""

    var contracts: String { "\(name)Contracts" }
    var route: String { "\(name)Route" }

    /// Each file's path inside the package, and its text.
    var files: [(path: String, text: String)] {
        [
            ("Package.swift", packageManifest),
            (".gitignore", ".build/\n.swiftpm/\n*.o\n"),
            ("README.md", readme),
            ("Sources/\(name)/module.manifest", moduleManifest),
            ("Sources/\(name)/\(name)Module.swift", moduleSource),
            ("Tests/\(name)Tests/\(name)Tests.swift", testSource),
            ("Tests/\(name)IntegrationTests/\(name)IntegrationTests.swift", integrationTestSource),
        ]
            + Self.locales.map { locale in
                ("Sources/\(name)/Resources/Strings/\(locale.code).lproj/Localizable.strings", strings(locale))
            }
            + (withRoute
                ? [
                    ("\(contracts)/Package.swift", contractsManifest), ("\(contracts)/Sources/\(contracts)/\(route).swift", routeSource),
                    ("\(contracts)/Sources/\(contracts)/contracts.manifest", contractsVersion),
                    ("Sources/\(routeUser)/module.manifest", routeUserManifest),
                    ("Sources/\(routeUser)/\(routeUser).swift", routeUserSource),
                ]
                : [])
    }

    var lowercased: String { ModuleName(name).commandWord }

    struct Locale {
        let code: String
        let welcome: String
        let greeting: String
        let world: String
        let hello: String
    }

    static let locales = [
        Locale(code: "en", welcome: "Welcome to %@.", greeting: "Hello, %@!", world: "world", hello: "Say hello"),
        Locale(code: "es", welcome: "Bienvenido a %@.", greeting: "¡Hola, %@!", world: "mundo", hello: "Saluda"),
        Locale(code: "fr", welcome: "Bienvenue dans %@.", greeting: "Bonjour, %@ !", world: "le monde", hello: "Dire bonjour"),
        Locale(code: "de", welcome: "Willkommen bei %@.", greeting: "Hallo, %@!", world: "Welt", hello: "Hallo sagen"),
        Locale(code: "it", welcome: "Benvenuto in %@.", greeting: "Ciao, %@!", world: "mondo", hello: "Saluta"),
        Locale(code: "el", welcome: "Καλώς ήρθατε στο %@.", greeting: "Γεια σου, %@!", world: "κόσμε", hello: "Πείτε γεια"),
    ]

    func strings(_ locale: Locale) -> String {
        let welcome = locale.welcome.replacing("%@", with: name)
        return """
            /* \(name): \(locale.code) */
            "home.title" = "\(name)";
            "welcome" = "\(welcome)";
            "greeting" = "\(locale.greeting)";
            "world" = "\(locale.world)";
            "command.hello" = "\(locale.hello)";
            "module.title" = "\(name)";

            """
    }

    /// `text` as a Swift string literal.
    static func swiftLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }
}
