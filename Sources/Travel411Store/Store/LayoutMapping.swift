import Foundation

/// The `--level` and `--name-field` of an import, as a mapped layer's layout records them. The layout is
/// kept in the layer's gpkg_contents description ("<layout> from <file name>"), which is how the options
/// of an earlier import are recovered to repeat it.
package struct LayoutMapping: Equatable, Sendable {
    package var level: String
    package var nameField: String

    package init(level: String, nameField: String) {
        self.level = level
        self.nameField = nameField
    }

    private static let levelPrefix = "mapped by --level ", nameFieldSeparator = " --name-field ", fileSeparator = " from "

    package var layout: String { Self.levelPrefix + level + Self.nameFieldSeparator + nameField }

    /// Nil for the description of a known layout. DBF field names hold no spaces, so the name field ends
    /// at the first " from ".
    package init?(layerDescription: String) {
        guard layerDescription.hasPrefix(Self.levelPrefix),
            let separator = layerDescription.range(of: Self.nameFieldSeparator)
        else { return nil }
        let level = layerDescription[
            layerDescription.index(layerDescription.startIndex, offsetBy: Self.levelPrefix.count)..<separator.lowerBound]
        let rest = layerDescription[separator.upperBound...]
        let nameField = rest.range(of: Self.fileSeparator).map { rest[..<$0.lowerBound] } ?? rest
        guard !level.isEmpty, !nameField.isEmpty else { return nil }
        self.init(level: String(level), nameField: String(nameField))
    }
}
