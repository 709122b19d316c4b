import Foundation

/// ArgumentParser reads "-0.19" as an unknown option, so `move-city 51.50 -0.19` or
/// `--from 51.47 -0.45` would fail. Before parsing, each argument that is a negative number gets a
/// leading space: the parser then sees a value, and coordinate parsing trims the space again.
public enum NegativeNumberArguments {
    public static func protect(_ arguments: [String]) -> [String] {
        var protected: [String] = []
        protected.reserveCapacity(arguments.count)
        var afterTerminator = false
        for argument in arguments {
            if argument == "--" { afterTerminator = true }
            // After "--" everything is positional already.
            protected.append(!afterTerminator && isNegativeNumber(argument) ? " " + argument : argument)
        }
        return protected
    }

    /// "-1", "-0.19", "-.5", "-1e-3", and a comma list starting with one: a "LAT,LON" pair
    /// ("-33.86,151.21"), a pin ("-18.14,178.43,Suva"), a region ("-17.5,179,2,3"). Not "-", "--x" or
    /// "-v": no option of travel411 starts with a digit.
    public static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let body = text.dropFirst()
        guard let first = body.first, first.isASCII, first.isNumber || first == "." else { return false }
        let leading = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return Double(leading.trimmingCharacters(in: .whitespaces)) != nil
    }
}
