import ModuleKit
import Testing

/// A module command's options are declared once: the usage line, the help and the parser read
/// the same `CommandOption` values.
@Suite struct CommandOptionTests {
    let country = CommandOption("--country C", "the country")
    let city = CommandOption.required("--city NAME", "the city")
    let yes = CommandOption("--yes", "do not ask")

    @Test func anOptionKnowsItsNameAndWhetherItTakesAValue() {
        #expect(city.name == "--city" && city.valueName == "NAME" && city.isRequired)
        #expect(yes.name == "--yes" && yes.valueName == nil && !yes.isRequired)
        #expect(CommandOption("--to  NEW NAME", "").valueName == "NEW NAME")
    }

    @Test func theUsageIsMadeFromTheOptionsInOrder() {
        let add = ModuleCommand(name: "add", summary: "", options: [country, city]) { _ in }
        #expect(add.usage == "add [--country C] --city NAME")
        let remove = ModuleCommand(name: "remove", summary: "", arguments: "ID", options: [city, yes]) { _ in }
        #expect(remove.usage == "remove ID --city NAME [--yes]")
        #expect(ModuleCommand(name: "list", summary: "") { _ in }.usage == "list")
    }

    @Test func theParserReadsTheSameDeclarations() throws {
        let arguments = try CommandArguments(["--city=Lyon", "--yes", "--country", "FR"], options: [country, city, yes])
        #expect(try arguments.required(city) == "Lyon")
        #expect(arguments.value(country) == "FR")
        #expect(arguments.has(yes))
        let without = try CommandArguments(["--city", "Lyon"], options: [country, city, yes])
        #expect(without.value(country) == nil && !without.has(yes))
    }

    @Test(arguments: [
        (["--country", "FR"], "option '--city' is required"),
        (["--city", ""], "option '--city' is required"),
        (["--city", "Lyon", "--yes=1"], "unknown option '--yes'; this command takes --city, --country, --yes"),
        (["--city"], "option '--city' needs a value"),
        (["--city", "Lyon", "Paris"], "unexpected argument 'Paris'"),
    ])
    func aBadLineIsRefusedWithTheReason(line: [String], message: String) {
        #expect {
            _ = try CommandArguments(line, options: [country, city, yes])
        } throws: { error in
            (error as? CommandUsageError)?.message == message
        }
    }

    @Test func aRequiredFlagMustBeGiven() {
        let force = CommandOption.required("--force", "")
        #expect(throws: CommandUsageError.self) { try CommandArguments([], options: [force]) }
        #expect((try? CommandArguments(["--force"], options: [force]))?.has(force) == true)
    }
}
