import ArgumentParser
import Travel411Kit

// ArgumentParser would read a negative longitude such as "-0.1919" as an unknown option; protect
// such arguments before parsing so `move-city 51.5010 -0.1919` and `--from 51.47 -0.45` work.
extension Travel411Command {
    static func main() {
        main(NegativeNumberArguments.protect(Array(CommandLine.arguments.dropFirst())))
    }
}
