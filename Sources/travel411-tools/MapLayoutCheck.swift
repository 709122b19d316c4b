import Foundation
import Travel411CLI
import Travel411Core
import Travel411Guide

/// `--check-layout` of `map` and `quakes --map`: what `LayoutCheck` finds, a line each on stderr, and
/// a failure (exit 1) when it finds anything, so that Scripts/render-samples can stop on it.
enum MapLayoutCheck {
    static func enforce(_ layout: MapLayout) throws {
        let problems = layout.problems
        guard !problems.isEmpty else { return }
        problems.forEach { Diagnostics.warning("layout: \($0)") }
        throw UserFacingError(
            "the layout check found \(problems.count) problem\(problems.count == 1 ? "" : "s") (listed above)", exitStatus: .failure)
    }
}
